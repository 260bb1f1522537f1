import type { DocSection } from "../../types.js";

export const DEFAULT_MAX_SECTION_CHARS = 1500;

/**
 * Boundaries from coarsest to finest. Each pattern matches the separator that ends a piece;
 * the separator stays with the piece before it, so the pieces tile the text exactly.
 * Sentence ends: terminal punctuation, optional closing quotes/brackets, then whitespace.
 */
const BOUNDARIES: readonly RegExp[] = [/\n[ \t]*\n\s*/g, /\n\s*/g, /(?<=[.!?…]["'”’)\]]*)\s+/g, /\s+/g];

/**
 * Splits sections whose content exceeds `maxChars` into consecutive parts, each keeping
 * the section's headingPath, heading and level. Cuts fall on paragraph, then line, then
 * sentence, then word boundaries; a single word longer than `maxChars` (a URL, a hash)
 * stays whole in a part of its own rather than being cut.
 *
 * There is no overlap between parts: each part is indexed with its heading, which is the
 * context an overlap would otherwise supply, and repeated text would count twice in a
 * lexical index's term frequencies and surface the same passage as two hits. Joining the
 * parts with the whitespace that separated them gives the original content back.
 */
export function splitOversizedSections(
  sections: readonly DocSection[],
  maxChars: number = DEFAULT_MAX_SECTION_CHARS,
): DocSection[] {
  if (!(maxChars >= 1)) throw new RangeError(`maxChars must be at least 1 (got ${maxChars})`);
  const out: DocSection[] = [];
  for (const section of sections) {
    if (section.content.length <= maxChars) {
      out.push(section);
      continue;
    }
    for (const content of splitContent(section.content, maxChars)) {
      out.push({ ...section, headingPath: [...section.headingPath], content });
    }
  }
  return out;
}

/** Splits text into trimmed parts of at most `maxChars` each (except unsplittable words). */
export function splitContent(text: string, maxChars: number = DEFAULT_MAX_SECTION_CHARS): string[] {
  if (text.trim().length <= maxChars) return text.trim() === "" ? [] : [text.trim()];
  const pieces: string[] = [];
  atomise(text, maxChars, 0, pieces);

  // Greedy packing over offsets: pieces tile the text, so a part is one contiguous slice
  // from its first non-blank character to the end of its last piece's words. Lengths are
  // tracked as numbers so packing stays linear in the text size.
  const parts: string[] = [];
  let start = -1;
  let end = 0;
  let offset = 0;
  for (const piece of pieces) {
    const pieceStart = offset;
    offset += piece.length;
    const body = piece.trim();
    if (body === "") continue;
    const bodyStart = pieceStart + (piece.length - piece.trimStart().length);
    const bodyEnd = bodyStart + body.length;
    if (start !== -1 && bodyEnd - start > maxChars) {
      parts.push(text.slice(start, end));
      start = -1;
    }
    if (start === -1) start = bodyStart;
    end = bodyEnd;
  }
  if (start !== -1) parts.push(text.slice(start, end));
  return parts;
}

/** Cuts text at the coarsest boundary whose pieces fit, refining only the pieces that do not. */
function atomise(text: string, maxChars: number, level: number, out: string[]): void {
  const boundary = BOUNDARIES[level];
  if (text.trim().length <= maxChars || boundary === undefined) {
    out.push(text);
    return;
  }
  for (const piece of cutAfter(text, boundary)) {
    if (piece.trim().length <= maxChars) out.push(piece);
    else atomise(piece, maxChars, level + 1, out);
  }
}

function cutAfter(text: string, boundary: RegExp): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].length;
    // A separator at the very start belongs to nothing before it; keep it with what follows.
    if (match.index === 0) continue;
    pieces.push(text.slice(from, end));
    from = end;
  }
  if (from < text.length) pieces.push(text.slice(from));
  return pieces;
}
