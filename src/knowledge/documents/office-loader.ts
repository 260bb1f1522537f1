// Office Open XML (.docx, .pptx, .xlsx), OpenDocument (.odt, .odp, .ods) and EPUB → ParsedDocument.
// Every format is a zip of XML parts: office-zip.ts reads the container within its caps,
// office-xml.ts each part as events, and one reader per format turns them into section buckets.
// The whole parse is bounded in time (a WorkClock checked between parts and every few thousand
// XML events), besides the parser thread's own bounds when it runs in an index's ingest pool.

import { DEADLINES } from "../../deadline.js";
import type { OfficeFormat } from "./document-format.js";
import { parseHtml } from "./html-loader.js";
import type { ParsedDocument } from "./loaded-document.js";
import { MAX_PARTS } from "./office-sections.js";
import { readXlsx } from "./office-sheets.js";
import { readPptx } from "./office-slides.js";
import { readDocx } from "./office-word.js";
import { localName, resolvePart, walkXml } from "./office-xml.js";
import { OfficeParseError, WorkClock, ZipParts } from "./office-zip.js";
import { readOpenDocument } from "./opendocument.js";
import { percentDecoded } from "./percent-decoding.js";
import { collapseWhitespace } from "./plain-text.js";
import { buildSections, type SectionBucket } from "./section-tree.js";

/** Bound on parsing one office file (as for a PDF). */
export const DEFAULT_OFFICE_PARSE_TIMEOUT_MS = DEADLINES.pdfParseMs;

export interface OfficeParseOptions {
  timeoutMs?: number;
}

/** Parses the bytes of an office file; rejects with an OfficeParseError naming what is wrong. */
export async function parseOffice(
  bytes: Uint8Array,
  format: OfficeFormat,
  fileTitle: string,
  options: OfficeParseOptions = {},
): Promise<ParsedDocument> {
  const clock = new WorkClock(options.timeoutMs ?? DEFAULT_OFFICE_PARSE_TIMEOUT_MS);
  const zip = await ZipParts.open(bytes, clock);
  try {
    const { buckets, title } = await readFormat(zip, format, clock);
    if (!buckets.some((b) => b.content.trim() !== "" || b.heading !== undefined)) {
      throw new OfficeParseError("no text found");
    }
    const docTitle = collapseWhitespace(title ?? "") || fileTitle;
    return { title: docTitle, sections: buildSections(docTitle, buckets) };
  } finally {
    zip.close();
  }
}

interface FormatText {
  buckets: SectionBucket[];
  title?: string | undefined;
}

async function readFormat(zip: ZipParts, format: OfficeFormat, clock: WorkClock): Promise<FormatText> {
  switch (format) {
    case "docx": {
      const word = await readDocx(zip, await mainPart(zip, "word/document.xml", clock), clock);
      return { buckets: word.buckets, title: word.title ?? (await coreTitle(zip, clock)) };
    }
    case "pptx": {
      const slides = await readPptx(zip, clock);
      return { buckets: slides.buckets, title: (await coreTitle(zip, clock)) ?? slides.firstTitle };
    }
    case "xlsx":
      return { buckets: await readXlsx(zip, clock), title: await coreTitle(zip, clock) };
    case "odt":
    case "odp":
    case "ods": {
      const kind = format === "odt" ? "text" : format === "odp" ? "presentation" : "spreadsheet";
      const buckets = readOpenDocument(await zip.required("content.xml"), kind, clock);
      const title = metaTitle("meta.xml", await zip.text("meta.xml"), clock);
      // As for PowerPoint: a deck without a stated title is named by its first slide's.
      return { buckets, title: title ?? (kind === "presentation" ? buckets[0]?.heading : undefined) };
    }
    case "epub":
      return readEpub(zip, clock);
  }
}

/** The main document part named by the package relationships (`_rels/.rels`), else the usual one. */
async function mainPart(zip: ZipParts, usual: string, clock: WorkClock): Promise<string> {
  if (zip.has(usual)) return usual;
  const rels = await zip.text("_rels/.rels");
  let found: string | undefined;
  walkXml(
    "_rels/.rels",
    rels ?? "<Relationships/>",
    {
      open(name, attributes) {
        if (
          localName(name) === "Relationship" &&
          attributes.Type?.endsWith("/officeDocument") &&
          attributes.Target
        )
          found ??= resolvePart("", attributes.Target);
      },
    },
    clock,
  );
  return found ?? usual;
}

/** `dc:title` of docProps/core.xml, when it says something. */
async function coreTitle(zip: ZipParts, clock: WorkClock): Promise<string | undefined> {
  return metaTitle("docProps/core.xml", await zip.text("docProps/core.xml"), clock);
}

function metaTitle(part: string, xml: string | undefined, clock: WorkClock): string | undefined {
  if (xml === undefined) return undefined;
  let title: string | undefined;
  let inTitle = false;
  walkXml(
    part,
    xml,
    {
      open(name) {
        inTitle = name === "dc:title" && title === undefined;
        if (inTitle) title = "";
      },
      text(text) {
        if (inTitle) title += text;
      },
      close() {
        inTitle = false;
      },
    },
    clock,
  );
  const said = collapseWhitespace(title ?? "");
  return said === "" ? undefined : said;
}

/**
 * EPUB: the package document named by META-INF/container.xml; its spine's XHTML chapters in
 * order, each read by the HTML loader, their sections one after the other.
 */
async function readEpub(zip: ZipParts, clock: WorkClock): Promise<FormatText> {
  let opfPath: string | undefined;
  walkXml(
    "META-INF/container.xml",
    await zip.required("META-INF/container.xml"),
    {
      open(name, attributes) {
        if (localName(name) === "rootfile") opfPath ??= attributes["full-path"];
      },
    },
    clock,
  );
  if (opfPath === undefined) throw new OfficeParseError("META-INF/container.xml names no package document");
  const opf = await zip.required(opfPath);
  const folder = opfPath.includes("/") ? opfPath.slice(0, opfPath.lastIndexOf("/")) : "";
  const manifest = new Map<string, string>();
  const spine: string[] = [];
  walkXml(
    opfPath,
    opf,
    {
      open(name, attributes) {
        const local = localName(name);
        if (local === "item" && attributes.id && attributes.href)
          manifest.set(attributes.id, resolvePart(folder, percentDecoded(attributes.href)));
        else if (local === "itemref" && attributes.idref && spine.length < MAX_PARTS)
          spine.push(attributes.idref);
      },
    },
    clock,
  );
  const buckets: SectionBucket[] = [];
  for (const id of spine) {
    const part = manifest.get(id);
    const html = part === undefined ? undefined : await zip.text(part);
    if (html === undefined) continue;
    clock.check();
    const chapter = parseHtml(html, part ?? id);
    for (const section of chapter.sections) {
      buckets.push(
        section.heading !== undefined
          ? { level: section.level, heading: section.heading, content: section.content }
          : { level: 0, content: section.content },
      );
    }
  }
  return { buckets, title: metaTitle(opfPath, opf, clock) };
}
