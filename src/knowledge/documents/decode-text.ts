/** How far into a file a NUL byte marks it as binary (what git and grep look at, roughly). */
const BINARY_SNIFF_BYTES = 8192;

/** How far into an HTML file a declared charset is looked for (the HTML standard's prescan reads 1,024 bytes). */
const CHARSET_SNIFF_BYTES = 4096;

export type DecodedText =
  | { ok: true; text: string }
  /** `notUtf8`: text that is neither UTF-8 nor in a declared encoding (guess-encoding.ts may read it). */
  | { ok: false; reason: string; notUtf8?: true };

export interface DecodeOptions {
  /**
   * Honour the encoding an HTML page declares (`<meta charset>`, `<meta http-equiv=
   * "Content-Type" content="…; charset=…">`, an XML declaration's `encoding`) when it is not
   * UTF-8: Latin-1, windows-1252, Shift_JIS and every other WHATWG encoding Node's TextDecoder
   * knows (full ICU). A byte order mark overrides any declaration, as in a browser.
   */
  html?: boolean;
}

/**
 * Raw file bytes to loader input: decodes UTF-8 (and UTF-16 with a byte order mark, and for HTML
 * the charset the page declares), rejects binary and undeclared non-UTF-8 content with a reason a
 * person can act on, strips a byte order mark, and normalises CRLF and lone CR to LF so every
 * parser sees one kind of line ending.
 */
export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const bom = byteOrderMark(bytes);
  // A UTF-8 byte order mark takes the strict UTF-8 path below, which strips it.
  if (bom !== undefined && bom.encoding !== "utf-8")
    return decodeWith(bom.encoding, bytes.subarray(bom.length));
  const declared = options.html && bom === undefined ? declaredCharset(bytes) : undefined;
  if (declared !== undefined && declared !== "utf-8") return decodeWith(declared, bytes);
  const nul = bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0);
  if (nul !== -1) {
    return {
      ok: false,
      reason: `binary file (NUL byte at offset ${nul}; UTF-16 text is not supported either)`,
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return {
      ok: false,
      reason: `not valid UTF-8 (first invalid byte at offset ${firstInvalidUtf8Offset(bytes)}; re-save the file as UTF-8${options.html ? ", or declare its encoding with <meta charset>" : ""})`,
      notUtf8: true,
    };
  }
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  return { ok: true, text: text.replace(/\r\n?/g, "\n") };
}

export function decodeWith(encoding: string, bytes: Uint8Array): DecodedText {
  let text = new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);
  if (encoding === "windows-1252")
    text = text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80] ?? c);
  return { ok: true, text: text.replace(/\r\n?/g, "\n") };
}

/**
 * Bytes 0x80–0x9F in windows-1252 (the WHATWG index), which every "ISO-8859-1" page means. Node
 * 20's TextDecoder decodes this label as ISO-8859-1 (control characters), so they are mapped
 * here; an undefined byte stays as decoded.
 */
const WINDOWS_1252_C1 = [..."€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f", ..."\u0090‘’“”•–—˜™š›œ\u009džŸ"];

function byteOrderMark(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", length: 0 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", length: 2 };
  return undefined;
}

const META_TAG = /<meta\b[^>]*>/gi;
const CHARSET_ATTRIBUTE = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i;
const XML_ENCODING = /^\s*<\?xml\b[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i;

/**
 * The encoding an HTML page declares in its first few kilobytes, by its WHATWG name (so
 * "ISO-8859-1" and "latin1" are windows-1252, as browsers read them); undefined when it declares
 * none, or a label no decoder knows. Comments are skipped so a commented-out tag is not read.
 */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  // Every label and tag is ASCII; latin1 maps each byte to one character, so offsets are kept.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, CHARSET_SNIFF_BYTES))
    .toString("latin1")
    .replace(/<!--[\s\S]*?(-->|$)/g, "");
  const xml = XML_ENCODING.exec(head)?.[1];
  const labels = xml !== undefined ? [xml] : [];
  for (const tag of head.match(META_TAG) ?? []) {
    const label = CHARSET_ATTRIBUTE.exec(tag)?.[1];
    if (label !== undefined) labels.push(label);
  }
  for (const label of labels) {
    const encoding = encodingFor(label);
    if (encoding !== undefined) return encoding;
  }
  return undefined;
}

/** The WHATWG name of an encoding label ("latin1" is windows-1252), or undefined when no decoder knows it. */
export function encodingFor(label: string): string | undefined {
  try {
    const encoding = new TextDecoder(label).encoding;
    // A page cannot declare UTF-16 in bytes an ASCII scan could read: the standard reads it as UTF-8.
    return encoding.startsWith("utf-16") ? "utf-8" : encoding;
  } catch {
    return undefined;
  }
}

/**
 * Byte offset of the first malformed sequence. A lenient decode marks it with U+FFFD; any
 * earlier U+FFFD is a genuine one (encoded EF BF BD) and is skipped.
 */
function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  const lenient = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
  const encoder = new TextEncoder();
  let offset = 0;
  let from = 0;
  for (let at = lenient.indexOf("\uFFFD"); at !== -1; at = lenient.indexOf("\uFFFD", at + 1)) {
    offset += encoder.encode(lenient.slice(from, at)).length;
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
    offset += 3;
    from = at + 1;
  }
  return offset;
}
