// One XML part of an Office, OpenDocument or EPUB file, read as a stream of events with sax
// (pure JS, no dependencies, maintained): no tree is built, so a sheet's memory is its text, and a
// reader may end the walk early once it has what its bounds allow. Strict mode knows only XML's
// five entities and character references; a document type declaration (where entities would be
// declared) refuses the part, so entity expansion cannot happen at all.

import sax from "sax";
import { errorMessage } from "../../errors.js";
import { KnowledgeError } from "../knowledge-error.js";
import { OfficeParseError, type WorkClock, type ZipParts } from "./office-zip.js";

/** Elements in one part beyond this refuse the file. */
export const MAX_XML_ELEMENTS = 5_000_000;
/** How many events pass between two looks at the clock. */
const CLOCK_EVERY = 4096;

export interface XmlHandlers {
  open?(name: string, attributes: Readonly<Record<string, string>>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** Thrown by a handler to end the walk early (a bound reached): what was read so far is kept. */
export class EnoughRead extends KnowledgeError {
  constructor() {
    super("office-enough-read", "the reader's bound was reached");
  }
}

/**
 * Walks `xml` (element names as written, e.g. `w:p`; attributes likewise), calling the handlers
 * in document order. Malformed XML, a DOCTYPE, or more than MAX_XML_ELEMENTS elements refuse the
 * part with an OfficeParseError naming it.
 */
export function walkXml(part: string, xml: string, handlers: XmlHandlers, clock: WorkClock): void {
  const parser = sax.parser(true, { position: false, trim: false, normalize: false });
  let elements = 0;
  let events = 0;
  const tick = () => {
    if (++events % CLOCK_EVERY === 0) clock.check();
  };
  parser.ondoctype = () => {
    throw new OfficeParseError(`"${part}" declares a document type, which office files never do`);
  };
  parser.onopentag = (tag) => {
    if (++elements > MAX_XML_ELEMENTS) {
      throw new OfficeParseError(`"${part}" has over ${MAX_XML_ELEMENTS} elements`);
    }
    tick();
    handlers.open?.(tag.name, tag.attributes as Record<string, string>);
  };
  parser.onclosetag = (name) => {
    tick();
    handlers.close?.(name);
  };
  parser.ontext = (text) => {
    tick();
    handlers.text?.(text);
  };
  parser.oncdata = (text) => handlers.text?.(text);
  parser.onerror = (error) => {
    throw new OfficeParseError(`"${part}" is not well-formed XML (${firstLine(errorMessage(error))})`);
  };
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof EnoughRead) return;
    throw error;
  }
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? text;
}

/** Resolves a relationship target against the folder of the part that names it ("word/", "../x"). */
export function resolvePart(fromFolder: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = fromFolder.split("/").filter((p) => p !== "");
  for (const segment of target.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return parts.join("/");
}

/** Relationship id → target part (resolved) from a `_rels/*.rels` part. */
export function readRelationships(
  part: string,
  xml: string | undefined,
  fromFolder: string,
  clock: WorkClock,
): Map<string, string> {
  const targets = new Map<string, string>();
  if (xml === undefined) return targets;
  walkXml(
    part,
    xml,
    {
      open(name, attributes) {
        if (localName(name) !== "Relationship" || attributes.TargetMode === "External") return;
        const id = attributes.Id;
        const target = attributes.Target;
        if (id && target) targets.set(id, resolvePart(fromFolder, target));
      },
    },
    clock,
  );
  return targets;
}

/**
 * A part's relationships (id → resolved target part), read from where OOXML keeps them: those of
 * `xl/workbook.xml` in `xl/_rels/workbook.xml.rels`, resolved against `xl/`. None when absent.
 */
export async function partRelationships(
  zip: ZipParts,
  part: string,
  clock: WorkClock,
): Promise<Map<string, string>> {
  const folder = part.slice(0, part.lastIndexOf("/") + 1);
  const relsPart = `${folder}_rels/${part.slice(folder.length)}.rels`;
  return readRelationships(relsPart, await zip.text(relsPart), folder, clock);
}

/** `w:p` → `p`. */
export function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon === -1 ? name : name.slice(colon + 1);
}
