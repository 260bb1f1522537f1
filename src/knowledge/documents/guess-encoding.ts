// A file that is not UTF-8 and declares no encoding: a text file Windows Notepad saved as "ANSI"
// (windows-1252), an old web page in Latin-1 or Shift_JIS. Refusing it loses the document; it is
// read in the encoding `chardet` recognises when the guess is sure enough, and an HTML page that
// leaves it unsure in windows-1252, the HTML standard's default for a page that declares none; a
// file that is UTF-8 but for a few bad bytes is read as UTF-8 with those replaced. The indexer
// names every file read by a guess (refresh.ts warnOfWhatWasRead).
import { type DecodedText, decodeWith, encodingFor } from "./decode-text.js";

/** chardet's confidence (0–100) a guess needs; below it a text file stays refused. */
export const MIN_ENCODING_CONFIDENCE = 50;
/** Bytes chardet reads of a file: enough to tell an encoding, bounded for a large one. */
const GUESS_SAMPLE_BYTES = 64 * 1024;
/** What a browser reads an HTML page in when it declares no encoding and is not UTF-8. */
const HTML_DEFAULT_ENCODING = "windows-1252";

export type GuessedText = Extract<DecodedText, { ok: true }> & { guessed: string };

/**
 * `bytes` (not UTF-8, no encoding declared) decoded in a guessed encoding, or `refused` as it was
 * when no guess is sure enough for a file that is not HTML.
 */
export async function decodeGuessing(
  bytes: Uint8Array,
  html: boolean,
  refused: Extract<DecodedText, { ok: false }>,
): Promise<GuessedText | Extract<DecodedText, { ok: false }>> {
  // Mostly UTF-8 with a few bad bytes (a stray Latin-1 byte pasted in): read as UTF-8 with those
  // replaced, never as a legacy encoding, which would garble every character it has right.
  const lenient = decodeWith("utf-8", bytes);
  if (lenient.ok) {
    const invalid = count(lenient.text, /\uFFFD/g);
    if (count(lenient.text, /[^\x00-\x7F\uFFFD]/g) > invalid)
      return {
        ...lenient,
        guessed: `UTF-8 with ${invalid} invalid byte sequence${invalid === 1 ? "" : "s"} replaced`,
      };
  }
  const { analyse } = await import("chardet");
  // A guess of UTF-8 is wrong here: the bytes failed to decode as it.
  const guessed = analyse(bytes.subarray(0, GUESS_SAMPLE_BYTES))
    .filter((guess) => guess.confidence >= MIN_ENCODING_CONFIDENCE)
    .map((guess) => encodingFor(guess.name))
    .find((name) => name !== undefined && name !== "utf-8");
  const encoding = guessed ?? (html ? HTML_DEFAULT_ENCODING : undefined);
  if (encoding === undefined) return refused;
  const decoded = decodeWith(encoding, bytes);
  return decoded.ok ? { ...decoded, guessed: encoding } : refused;
}

function count(text: string, pattern: RegExp): number {
  let n = 0;
  for (const _ of text.matchAll(pattern)) n++;
  return n;
}
