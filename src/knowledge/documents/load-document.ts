import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { basename, extname } from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { errorMessage } from "../../errors.js";
import { decodeText } from "./decode-text.js";
import {
  documentFormatFor,
  GZIP_EXTENSION,
  isGzipped,
  isOfficeFormat,
  unsupportedReason,
} from "./document-format.js";
import { documentText } from "./document-text.js";
import { decodeGuessing } from "./guess-encoding.js";
import { parsedWithoutSoftHyphens } from "./hyphenation.js";
import type { LoadedDocument, ParsedDocument } from "./loaded-document.js";
import { DEFAULT_MAX_SECTION_CHARS, splitOversizedSections } from "./split-oversized.js";

// Each format's parser is loaded when the first file of that format comes: a parser thread given
// only Markdown never loads the PDF, Office and plain-text code or the packages they import
// (sax, yauzl: some 90 ms of CPU to load in each thread that would).
const pdfLoader = () => import("./pdf-loader.js");
const officeLoader = () => import("./office-loader.js");
const markdownLoader = () => import("./markdown-loader.js");
const htmlLoader = () => import("./html-loader.js");
const textLoader = () => import("./text-loader.js");
const rstLoader = () => import("./rst-loader.js");
const csvLoader = () => import("./csv-loader.js");

export const DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export interface LoadDocumentOptions {
  /** Files larger than this are rejected unread (default 10 MB). */
  maxBytes?: number;
  /** Sections longer than this are split into parts (default 1500 chars; Infinity keeps them whole). */
  maxSectionChars?: number;
  /** Bound on parsing one PDF (default 60 s); a slower file is skipped with that reason. */
  pdfTimeoutMs?: number;
  /** Bound on parsing one Office, OpenDocument or EPUB file (default 60 s). */
  officeTimeoutMs?: number;
}

export type LoadDocumentResult =
  | { ok: true; doc: LoadedDocument }
  /** `notTheFile`: the failure is the install's (a parser that cannot load), so it is not remembered. */
  | { ok: false; reason: string; notTheFile?: true };

/**
 * Reads one file into a LoadedDocument. Never throws for a bad file: unsupported types,
 * binary, non-UTF-8, oversized or unreadable files and parser failures come back as
 * `{ ok: false, reason }` so one bad file never stops an indexing run. The caller names the
 * file when it reports the reason; this function does not log.
 *
 * @param absPath the file to read
 * @param id the document id (path relative to the collection root, forward slashes)
 */
export async function loadDocument(
  absPath: string,
  id: string,
  opts: LoadDocumentOptions = {},
): Promise<LoadDocumentResult> {
  // An unsupported file is refused before its bytes are read.
  const unsupported = unsupportedReason(absPath);
  if (unsupported !== undefined) return { ok: false, reason: unsupported };
  const read = await readDocumentFile(absPath, opts.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES);
  return read.ok ? parseDocumentBytes(absPath, id, read, opts) : read;
}

/** The bytes of a file read by readDocumentFile, with what parsing needs to know of it. */
export interface DocumentBytes {
  bytes: Uint8Array;
  /** The file's modification time (ISO 8601), the fallback for the document's modifiedTime. */
  mtime?: string;
}

/** sha256 (hex) of a file's bytes: what a refresh compares to tell a touched file from an edited one. */
export function contentHashOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Parses bytes already read from absPath (its extension picks the format). Split from
 * loadDocument so a caller can compare the content hash before paying for a parse.
 */
export async function parseDocumentBytes(
  absPath: string,
  id: string,
  read: DocumentBytes,
  opts: LoadDocumentOptions = {},
): Promise<LoadDocumentResult> {
  const format = documentFormatFor(absPath);
  if (!format) return { ok: false, reason: unsupportedReason(absPath)! };
  const maxSectionChars = opts.maxSectionChars ?? DEFAULT_MAX_SECTION_CHARS;
  const gzipped = isGzipped(absPath);
  const name = basename(absPath);
  const plainName = gzipped ? name.slice(0, -GZIP_EXTENSION.length) : name;
  const fileTitle = basename(plainName, extname(plainName));
  let bytes = read.bytes;
  if (gzipped) {
    const unpacked = await gunzipBounded(bytes, opts.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES);
    if (!unpacked.ok) return unpacked;
    bytes = unpacked.bytes;
  }
  let parsed: ParsedDocument;
  /** The encoding a file that is not UTF-8 and declares none was read in (guess-encoding.ts). */
  let decodedAs: string | undefined;
  try {
    if (format === "pdf") {
      // Binary: no text decoding; the PDF loader splits its own oversized parts (per-part pages).
      const { parsePdf } = await pdfLoader();
      parsed = await parsePdf(bytes, fileTitle, {
        maxSectionChars,
        ...(opts.pdfTimeoutMs !== undefined ? { timeoutMs: opts.pdfTimeoutMs } : {}),
      });
    } else if (isOfficeFormat(format)) {
      const timeout = opts.officeTimeoutMs;
      const { parseOffice } = await officeLoader();
      parsed = await parseOffice(
        bytes,
        format,
        fileTitle,
        timeout !== undefined ? { timeoutMs: timeout } : {},
      );
    } else {
      const decoded = decodeText(bytes, { html: format === "html" });
      const guess =
        !decoded.ok && decoded.notUtf8 ? await decodeGuessing(bytes, format === "html", decoded) : undefined;
      const result = guess ?? decoded;
      if (!result.ok) return { ok: false, reason: result.reason };
      if (guess?.ok) decodedAs = guess.guessed;
      parsed = await parse(format, result.text, fileTitle);
    }
  } catch (error) {
    const reason = `${format} parser failed: ${errorMessage(error)}`;
    return format === "pdf" && error instanceof (await pdfLoader()).PdfEngineMissingError
      ? { ok: false, reason, notTheFile: true }
      : { ok: false, reason };
  }

  // Soft hyphens and word joiners say where a line may break; kept, they split words when indexed.
  parsed = parsedWithoutSoftHyphens(parsed);
  const doc: LoadedDocument = {
    id,
    title: parsed.title,
    text: documentText(parsed.sections),
    sections: splitOversizedSections(parsed.sections, maxSectionChars),
    contentHash: contentHashOf(read.bytes),
  };
  if (parsed.url) doc.url = parsed.url;
  if (decodedAs) doc.decodedAs = decodedAs;
  // Only a date the document states (front matter, HTML meta): a file's mtime is when it was
  // copied or cloned, which `updated:` would present as when its content last changed.
  if (parsed.modifiedTime) doc.modifiedTime = parsed.modifiedTime;
  return { ok: true, doc };
}

const gunzipAsync = promisify(gunzip);

/**
 * A gzip file's contents, refused past `maxBytes` uncompressed: the document limit bounds what
 * is unpacked (a few KB can unpack to gigabytes), not only what is read.
 */
async function gunzipBounded(
  bytes: Uint8Array,
  maxBytes: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: string }> {
  try {
    return { ok: true, bytes: await gunzipAsync(bytes, { maxOutputLength: maxBytes }) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_BUFFER_TOO_LARGE") {
      return { ok: false, reason: `file too large uncompressed (over the ${formatBytes(maxBytes)} limit)` };
    }
    return { ok: false, reason: `not a readable gzip file: ${errorMessage(error)}` };
  }
}

async function parse(
  format: "markdown" | "mdx" | "rst" | "text" | "html" | "csv" | "tsv",
  text: string,
  fileTitle: string,
): Promise<ParsedDocument> {
  switch (format) {
    case "markdown":
      return (await markdownLoader()).parseMarkdown(text, fileTitle);
    case "mdx":
      return (await markdownLoader()).parseMarkdown(text, fileTitle, { mdx: true });
    case "text":
      return (await textLoader()).parseText(text, fileTitle);
    case "rst":
      return (await rstLoader()).parseRst(text, fileTitle);
    case "html":
      return (await htmlLoader()).parseHtml(text, fileTitle);
    case "csv":
      return (await csvLoader()).parseCsv(text, fileTitle);
    case "tsv":
      return (await csvLoader()).parseCsv(text, fileTitle, true);
  }
}

type ReadResult = ({ ok: true } & DocumentBytes) | { ok: false; reason: string };

/**
 * Reads at most maxBytes + 1 bytes, so a file that is (or grows) too large is rejected
 * without ever being read whole into memory.
 */
export async function readDocumentFile(absPath: string, maxBytes: number): Promise<ReadResult> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(absPath, "r");
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, reason: "not a regular file" };
    if (stat.size > maxBytes) return { ok: false, reason: tooLarge(stat.size, maxBytes) };
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let filled = 0;
    // Each read either advances or returns 0 (end of file); the buffer size bounds the loop.
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // The file grew after the size check.
    if (filled > maxBytes)
      return { ok: false, reason: `file too large (over the ${formatBytes(maxBytes)} limit)` };
    const mtime = Number.isFinite(stat.mtimeMs) ? stat.mtime.toISOString() : undefined;
    return { ok: true, bytes: buffer.subarray(0, filled), ...(mtime ? { mtime } : {}) };
  } catch (error) {
    return { ok: false, reason: `cannot read file: ${errorMessage(error)}` };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function tooLarge(size: number, maxBytes: number): string {
  return `file too large (${formatBytes(size)}; limit ${formatBytes(maxBytes)})`;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
