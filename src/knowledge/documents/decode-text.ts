/** How far into a file a NUL byte marks it as binary (what git and grep look at, roughly). */
const BINARY_SNIFF_BYTES = 8192;

export type DecodedText = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Raw file bytes to loader input: rejects binary and non-UTF-8 content with a reason a
 * person can act on, strips a UTF-8 byte order mark, and normalises CRLF and lone CR to LF
 * so every parser sees one kind of line ending.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
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
      reason: `not valid UTF-8 (first invalid byte at offset ${firstInvalidUtf8Offset(bytes)}; re-save the file as UTF-8)`,
    };
  }
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  return { ok: true, text: text.replace(/\r\n?/g, "\n") };
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
