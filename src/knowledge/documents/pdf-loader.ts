// PDF → ParsedDocument on pdf.js (legacy build, in-process "fake" worker). Nothing is fetched
// at run time: standard-font data, CMaps and wasm decoders are read from the installed
// package, font faces are never installed, and eval is off. The whole parse is bounded in time.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { errorMessage, SecondLookError } from "../../errors.js";
import type { ParsedDocument } from "./loaded-document.js";
import { headingLevels } from "./pdf-headings.js";
import { matchOutline, type PdfOutlineEntry } from "./pdf-outline.js";
import { isBoldFontName, type PdfRow, type PdfTextItem, rowsOfPage } from "./pdf-rows.js";
import { pdfSections } from "./pdf-sections.js";

export const DEFAULT_PDF_PARSE_TIMEOUT_MS = 60_000;
/** Outline entries beyond this are ignored: a bookmark tree is a table of contents, not data. */
const MAX_OUTLINE_ENTRIES = 5_000;

export interface PdfParseOptions {
  maxSectionChars: number;
  /** Bound on the whole parse (default 60 s). */
  timeoutMs?: number;
}

/** A PDF that cannot be read; the message says what is wrong with it. */
export class PdfParseError extends SecondLookError {
  constructor(message: string) {
    super("knowledge", "pdf-parse", message);
    this.name = "PdfParseError";
  }
}

/** Parses PDF bytes; rejects with a PdfParseError naming the problem (invalid, encrypted, no text, too slow). */
export async function parsePdf(
  bytes: Uint8Array,
  fileTitle: string,
  options: PdfParseOptions,
): Promise<ParsedDocument> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const assets = packageAssets();
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
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.expired = true;
      reject(new PdfParseError(`parsing took longer than ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([extract(task.promise, fileTitle, options, deadline), timeout]);
  } catch (error) {
    throw error instanceof PdfParseError ? error : new PdfParseError(describe(error));
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }
}

type PdfDocument = Awaited<
  ReturnType<typeof import("pdfjs-dist/legacy/build/pdf.mjs").getDocument>["promise"]
>;

async function extract(
  loading: Promise<PdfDocument>,
  fileTitle: string,
  options: PdfParseOptions,
  deadline: { expired: boolean },
): Promise<ParsedDocument> {
  const doc = await loading;
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
function packageAssets(): {
  standardFontDataUrl: string;
  cMapUrl: string;
  cMapPacked: boolean;
  wasmUrl: string;
} {
  const root = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
  return {
    standardFontDataUrl: `${join(root, "standard_fonts")}/`,
    cMapUrl: `${join(root, "cmaps")}/`,
    cMapPacked: true,
    wasmUrl: `${join(root, "wasm")}/`,
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
