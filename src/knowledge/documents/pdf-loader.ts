// PDF → ParsedDocument on pdf.js (legacy build, in-process "fake" worker). Nothing is fetched
// at run time: standard-font data, CMaps and wasm decoders are read from the copy of pdf.js the
// package ships (vendor/pdfjs-dist, made by scripts/vendor-pdfjs.mjs, which says why it is not a
// dependency), font faces are never installed, and eval is off. The whole parse is bounded in
// time: the CPU time of its thread, with wall-clock time as the last resort (parse-bound.ts).

import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import CSSMatrix from "@thednp/dommatrix";
import { DEADLINES } from "../../deadline.js";
import { errorMessage } from "../../errors.js";
import { KnowledgeError } from "../knowledge-error.js";
import type { ParsedDocument } from "./loaded-document.js";
import { watchOwnParse } from "./parse-bound.js";
import { headingLevels } from "./pdf-headings.js";
import { matchOutline, type PdfOutlineEntry } from "./pdf-outline.js";
import { isBoldFontName, type PdfRow, type PdfTextItem, rowsOfPage } from "./pdf-rows.js";
import { pdfSections } from "./pdf-sections.js";

export const DEFAULT_PDF_PARSE_TIMEOUT_MS = DEADLINES.pdfParseMs;
/**
 * Longer PDFs are refused before any page is read: text extraction costs grow faster than the
 * page count, and a document this long is a book to split, not a page of a bot's knowledge.
 */
export const MAX_PDF_PAGES = 5_000;
/** Outline entries beyond this are ignored: a bookmark tree is a table of contents, not data. */
const MAX_OUTLINE_ENTRIES = 5_000;

export interface PdfParseOptions {
  maxSectionChars: number;
  /** Bound on the whole parse's CPU time (default 60 s; 5 × as much wall-clock time at most). */
  timeoutMs?: number;
}

/** A PDF that cannot be read; the message says what is wrong with it. */
export class PdfParseError extends KnowledgeError {
  constructor(message: string) {
    super("pdf-parse", message);
    this.name = "PdfParseError";
  }
}

/**
 * pdf.js itself could not be loaded: the install is at fault, not the file, so an index must
 * not remember the file as refused (it is read again once the install is repaired).
 */
export class PdfEngineMissingError extends KnowledgeError {
  constructor(message: string) {
    super("pdf-engine-missing", message);
    this.name = "PdfEngineMissingError";
  }
}

/** Parses PDF bytes; rejects with a PdfParseError naming the problem (invalid, encrypted, no text, too slow). */
export async function parsePdf(
  bytes: Uint8Array,
  fileTitle: string,
  options: PdfParseOptions,
): Promise<ParsedDocument> {
  const declared = declaredPageCount(bytes);
  if (declared !== undefined && declared > MAX_PDF_PAGES) {
    throw new PdfParseError(`${declared} pages (limit ${MAX_PDF_PAGES})`);
  }
  const pdfjs = await loadPdfjs();
  const assets = pdfjsAssets();
  const task = pdfjs.getDocument({
    // pdf.js may transfer (detach) the buffer it is given; the caller still hashes its bytes.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
    ...assets,
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_PDF_PARSE_TIMEOUT_MS;
  const deadline = { expired: false };
  let cancel: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    cancel = watchOwnParse(timeoutMs, (reason) => {
      deadline.expired = true;
      reject(new PdfParseError(reason));
    });
  });
  try {
    return await Promise.race([extract(task.promise, fileTitle, options, deadline), timeout]);
  } catch (error) {
    throw error instanceof PdfParseError ? error : new PdfParseError(describe(error));
  } finally {
    cancel?.();
    await task.destroy().catch(() => undefined);
  }
}

/** The module's type comes from the pdfjs-dist dev dependency; its code from the shipped copy. */
type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type PdfDocument = Awaited<ReturnType<Pdfjs["getDocument"]>["promise"]>;

/**
 * The shipped copy of pdf.js: vendor/pdfjs-dist at the package root, two folders above this
 * module both in src/ (tests) and in dist/ (the installed package).
 */
const PDFJS_ROOT = fileURLToPath(new URL("../../../vendor/pdfjs-dist/", import.meta.url));

/**
 * Warnings pdf.js prints once as its Node build loads when the optional canvas package is absent
 * (it is not installed with this package): they concern rendering, which is never done here.
 */
const RENDERING_ONLY_WARNING =
  /^Warning: Cannot (load "@napi-rs\/canvas" package|polyfill `(DOMMatrix|ImageData|Path2D)`)/;

let pdfjsModule: Promise<Pdfjs> | undefined;

/** pdf.js, loaded once per thread (tried again after a failure). */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjsModule ??= importPdfjs().catch((error: unknown) => {
    pdfjsModule = undefined;
    throw error;
  });
  return pdfjsModule;
}

async function importPdfjs(): Promise<Pdfjs> {
  const entry = `${PDFJS_ROOT}legacy/build/pdf.mjs`;
  if (!existsSync(entry)) {
    throw new PdfEngineMissingError(
      `pdf.js is missing from ${PDFJS_ROOT} (run \`npm run build\`, or reinstall the package)`,
    );
  }
  // pdf.js's Node build builds a DOMMatrix as it loads, and one more per bitmap Type3 glyph,
  // taking the class from the canvas package when the global is missing. Node has none; this
  // pure-JS one covers what text extraction reaches.
  const scope = globalThis as { DOMMatrix?: unknown };
  scope.DOMMatrix ??= CSSMatrix;
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === "string" && RENDERING_ONLY_WARNING.test(args[0]))) warn.apply(console, args);
  };
  try {
    return (await import(pathToFileURL(entry).href)) as Pdfjs;
  } catch (error) {
    throw new PdfParseError(`pdf.js could not be loaded from ${PDFJS_ROOT} (${errorMessage(error)})`);
  } finally {
    console.warn = warn;
  }
}

async function extract(
  loading: Promise<PdfDocument>,
  fileTitle: string,
  options: PdfParseOptions,
  deadline: { expired: boolean },
): Promise<ParsedDocument> {
  const doc = await loading;
  if (doc.numPages > MAX_PDF_PAGES) {
    throw new PdfParseError(`${doc.numPages} pages (limit ${MAX_PDF_PAGES})`);
  }
  const outline = await outlineEntries(doc).catch(() => []);
  // Bold faces only matter to the heading heuristics; finding them needs each page's operator
  // list, so it is skipped when the bookmarks will do.
  const wantBold = outline.length === 0;
  const rows: PdfRow[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    if (deadline.expired) throw new PdfParseError("parse deadline passed");
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const items = content.items.filter((item): item is PdfTextItem & typeof item => "str" in item);
    const bold = new Set<string>();
    if (wantBold) {
      await page.getOperatorList().catch(() => undefined);
      for (const id of new Set(items.map((i) => i.fontName))) {
        const font = page.commonObjs.has(id) ? (page.commonObjs.get(id) as { name?: unknown }) : undefined;
        if (typeof font?.name === "string" && isBoldFontName(font.name)) bold.add(id);
      }
    }
    rows.push(...rowsOfPage(items, n, bold));
    page.cleanup();
  }
  if (rows.length === 0) {
    throw new PdfParseError("no text layer (scanned pages need OCR, which is not supported)");
  }

  const levels = matchOutline(outline, rows) ?? headingMap(headingLevels(rows));
  const title = (await metadataTitle(doc)) ?? firstTopHeading(rows, levels) ?? fileTitle;
  return { title, sections: pdfSections(title, rows, levels, options.maxSectionChars) };
}

/**
 * How many page objects the file shows in plain (uncompressed) objects, counted without parsing
 * it: opening a PDF of tens of thousands of pages already takes seconds, so an oversized one is
 * refused before. Pages inside object streams are not seen here; the count pdf.js reports after
 * opening is checked again.
 */
function declaredPageCount(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  let pages = 0;
  // Linear: matches start at distinct "/Type" tokens and never overlap.
  for (const _ of text.matchAll(/\/Type\s*\/Page(?![A-Za-z])/g)) pages++;
  return pages > 0 ? pages : undefined;
}

function headingMap(levels: readonly number[]): Map<number, number> {
  const map = new Map<number, number>();
  levels.forEach((level, i) => {
    if (level > 0) map.set(i, level);
  });
  return map;
}

function firstTopHeading(rows: readonly PdfRow[], levels: ReadonlyMap<number, number>): string | undefined {
  let best: { index: number; level: number } | undefined;
  for (const [index, level] of levels) {
    if (!best || level < best.level || (level === best.level && index < best.index)) best = { index, level };
  }
  return best ? rows[best.index]!.text : undefined;
}

/** The Info dictionary's title, unless it is empty or mojibake (docs/reference/vectorless-strategies.md §2.5). */
async function metadataTitle(doc: PdfDocument): Promise<string | undefined> {
  const meta = await doc.getMetadata().catch(() => undefined);
  const raw = (meta?.info as { Title?: unknown } | undefined)?.Title;
  if (typeof raw !== "string") return undefined;
  const title = raw.replace(/\s+/g, " ").trim();
  const alnum = title.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return alnum >= 4 ? title : undefined;
}

/** The outline flattened depth-first (level = depth + 1), with each bookmark's page when resolvable. */
async function outlineEntries(doc: PdfDocument): Promise<PdfOutlineEntry[]> {
  const outline = await doc.getOutline();
  if (!outline) return [];
  type Node = (typeof outline)[number];
  const out: PdfOutlineEntry[] = [];
  const stack: { node: Node; depth: number }[] = outline.map((node) => ({ node, depth: 1 })).reverse();
  while (stack.length > 0 && out.length < MAX_OUTLINE_ENTRIES) {
    const { node, depth } = stack.pop()!;
    const entry: PdfOutlineEntry = { title: String(node.title ?? ""), level: Math.min(depth, 6) };
    const page = await destinationPage(doc, node.dest).catch(() => undefined);
    if (page !== undefined) entry.page = page;
    out.push(entry);
    const children = Array.isArray(node.items) ? node.items : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, depth: depth + 1 });
  }
  return out;
}

async function destinationPage(doc: PdfDocument, dest: unknown): Promise<number | undefined> {
  const explicit = typeof dest === "string" ? await doc.getDestination(dest) : dest;
  if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
  const target: unknown = explicit[0];
  if (typeof target === "number" && Number.isInteger(target)) return target + 1;
  if (target && typeof target === "object" && "num" in target && "gen" in target) {
    return (await doc.getPageIndex(target as { num: number; gen: number })) + 1;
  }
  return undefined;
}

/** Local paths of pdf.js's data files, so nothing is ever fetched from a CDN. */
function pdfjsAssets(): {
  standardFontDataUrl: string;
  cMapUrl: string;
  cMapPacked: boolean;
  wasmUrl: string;
} {
  return {
    standardFontDataUrl: `${PDFJS_ROOT}standard_fonts/`,
    cMapUrl: `${PDFJS_ROOT}cmaps/`,
    cMapPacked: true,
    wasmUrl: `${PDFJS_ROOT}wasm/`,
  };
}

function describe(error: unknown): string {
  const name = (error as { name?: unknown })?.name;
  const message = errorMessage(error);
  switch (name) {
    case "InvalidPDFException":
      return `not a valid PDF (${message})`;
    case "PasswordException":
      return "encrypted PDF: it needs a password";
    case "MissingPDFException":
      return `PDF data missing (${message})`;
    default:
      return `unreadable PDF (${message})`;
  }
}
