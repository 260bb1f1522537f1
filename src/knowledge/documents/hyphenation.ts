// Words broken for layout, made whole again before they are indexed. Two kinds:
// - soft hyphens (U+00AD, HTML's `&shy;`) and word joiners (U+2060, U+FEFF) inside a word: they
//   only say where a line may break, yet a tokenizer splits the word there ("Sicher&shy;heit");
// - a word a typesetter broke at the end of a line ("configura-" / "tion" in a PDF, "speci-" /
//   "fied" in a manual page saved as text): the two halves are no word of the document.
// A line-end hyphen can also be a word's own ("day-to-" / "day", "read-" / "only"): the
// document's own words decide, as a reader would (rejoinBrokenWord).

import type { ParsedDocument } from "./loaded-document.js";

const INVISIBLE_BREAKS = /[\u00ad\u2060\ufeff]/g;

const HAS_INVISIBLE_BREAK = /[\u00ad\u2060\ufeff]/;

/** `text` without soft hyphens and word joiners. */
export function withoutSoftHyphens(text: string): string {
  return HAS_INVISIBLE_BREAK.test(text) ? text.replace(INVISIBLE_BREAKS, "") : text;
}

/**
 * A parsed document's title, headings and text without soft hyphens and word joiners; the
 * document itself when it holds none (most do not: nothing is copied for them).
 */
export function parsedWithoutSoftHyphens(parsed: ParsedDocument): ParsedDocument {
  const holds =
    HAS_INVISIBLE_BREAK.test(parsed.title) ||
    parsed.sections.some(
      (s) =>
        HAS_INVISIBLE_BREAK.test(s.content) ||
        HAS_INVISIBLE_BREAK.test(s.heading ?? "") ||
        s.headingPath.some((h) => HAS_INVISIBLE_BREAK.test(h)),
    );
  if (!holds) return parsed;
  return {
    ...parsed,
    title: withoutSoftHyphens(parsed.title),
    sections: parsed.sections.map((section) => ({
      ...section,
      headingPath: section.headingPath.map(withoutSoftHyphens),
      ...(section.heading !== undefined ? { heading: withoutSoftHyphens(section.heading) } : {}),
      content: withoutSoftHyphens(section.content),
    })),
  };
}

/**
 * A document's words, lower-cased, hyphenated ones whole: what a line-end hyphen is checked
 * against. Read from its lines in order; the halves of a word broken across two of them count
 * only where they also stand on their own ("speci-" / "fied" leaves neither "speci" nor "fied").
 */
export function documentWords(lines: Iterable<string>): Set<string> {
  const seen = new Map<string, number>();
  const halves = new Map<string, number>();
  const count = (map: Map<string, number>, word: string) => map.set(word, (map.get(word) ?? 0) + 1);
  let brokeBefore = false;
  for (const line of lines) {
    let first = true;
    let last: string | undefined;
    for (const match of line.matchAll(WORD)) {
      const word = match[0].replaceAll("\u2010", "-").toLowerCase();
      count(seen, word);
      if (first && brokeBefore) count(halves, word);
      first = false;
      last = word;
    }
    brokeBefore = last !== undefined && BREAK_AT_END.test(line);
    if (brokeBefore) count(halves, last!);
  }
  const words = new Set<string>();
  for (const [word, n] of seen) if (n > (halves.get(word) ?? 0)) words.add(word);
  return words;
}

/** A line ending in a letter and a hyphen: its last word may be the first half of a broken one. */
const BREAK_AT_END = /\p{L}[-\u2010\u00ad]$/u;

/** A run of letters, with inner hyphens ("day-to-day"), never ending in one. */
const WORD = /\p{L}+(?:[-\u2010]\p{L}+)*/gu;

/**
 * The word a line ended with (`head`, its hyphen removed) and the letters the next line starts
 * with (`tail`; `tailContinues` when a hyphen and letters follow them), as one word: joined where
 * the hyphen was the typesetter's, hyphenated where the word has its own. `undefined` when the
 * pair is no broken word (the next line starts a new one: a capital after a lower-case letter).
 */
export function rejoinBrokenWord(
  head: string,
  tail: string,
  words: ReadonlySet<string>,
  tailContinues = false,
): string | undefined {
  const last = head.at(-1);
  const first = tail[0];
  if (!last || !first || !LETTER.test(last) || !LETTER.test(first)) return undefined;
  const lowerHead = isLower(last);
  if (lowerHead ? !isLower(first) : isLower(first)) return undefined;
  const joined = `${head}${tail}`;
  const hyphenated = `${head}-${tail}`;
  if (words.has(joined.toLowerCase())) return joined;
  if (words.has(hyphenated.replaceAll("\u2010", "-").toLowerCase())) return hyphenated;
  // A compound: the word holds another hyphen ("day-to-" / "day", "side-" / "by-side"), or both
  // halves are words of the document ("second-" / "level") while the whole is not. Short halves
  // do not count: "com", "pro", "de" stand alone in URLs and names, yet start most broken words.
  if (/[-\u2010]/.test(head) || tailContinues) return hyphenated;
  if (isWordOf(head, words) && isWordOf(tail, words)) return hyphenated;
  return joined;
}

const LETTER = /^\p{L}$/u;
/** Letters a half of a broken word needs to count as a word of its own. */
const MIN_COMPOUND_PART = 4;
const isWordOf = (part: string, words: ReadonlySet<string>) =>
  [...part].length >= MIN_COMPOUND_PART && words.has(part.toLowerCase());
const isLower = (c: string) => c !== c.toUpperCase() && c === c.toLowerCase();

/** Whether a line ends in a hyphen (a hyphen, groff's U+2010 or a soft hyphen): a word may break there. */
export function endsInHyphen(line: string): boolean {
  return /[-\u2010\u00ad]$/.test(line);
}

/** Longer than this is no word: only a line's last characters are read for one. */
const MAX_WORD_CHARS = 64;
/**
 * A line that ends with a broken word: the word (letters and inner hyphens) before its final
 * hyphen, which follows a letter (not "--", not a list's dash).
 */
const LINE_END_BREAK = /(\p{L}+(?:[-\u2010]\p{L}+)*)([-\u2010\u00ad])$/u;
/** The letters a line starts with, after its indentation. */
const LINE_START = /^[ \t]*(\p{L}[\p{L}\p{N}_]*)/u;
/** Punctuation that closed a word ("fied.", "tion),"): it moves up with the word. */
const CLOSING = /^[\p{Pe}\p{Pf}\p{Po}]*/u;

/**
 * Two consecutive lines with the word broken between them made whole at the end of the first
 * (with the punctuation that closed it), the second keeping the rest without its leading blanks;
 * `undefined` when no word is broken there.
 */
export function rejoinAcross(
  line: string,
  next: string,
  words: ReadonlySet<string>,
): { line: string; next: string } | undefined {
  if (!endsInHyphen(line)) return undefined;
  const end = line.slice(-MAX_WORD_CHARS);
  const broken = LINE_END_BREAK.exec(end);
  const start = broken && LINE_START.exec(next);
  // A run of letters filling the whole window is no word (nor is what it would join).
  if (!broken || !start || (broken.index === 0 && line.length > end.length)) return undefined;
  // A soft hyphen is a break by definition; "‐" (U+2010) is how groff sets a hyphen in UTF-8. A
  // word after "-" or "--" is part of a compound or an option ("--no-" / "recursion"): it keeps it.
  const head = broken[1]!;
  const before = end[broken.index - 1];
  const whole =
    broken[2] === "\u00ad"
      ? `${head}${start[1]}`
      : before === "-" || before === "\u2010"
        ? `${head}${broken[2]}${start[1]}`
        : rejoinBrokenWord(head, start[1]!, words, /^[-\u2010]\p{L}/u.test(next.slice(start[0].length)));
  if (whole === undefined) return undefined;
  const rest = next.slice(start[0].length);
  const closing = CLOSING.exec(rest)![0];
  return {
    line: `${line.slice(0, line.length - end.length + broken.index)}${whole}${closing}`,
    next: rest.slice(closing.length).replace(/^[ \t]+/, ""),
  };
}

/**
 * Plain text laid out in lines (a manual page, text exported from a PDF): every word broken at a
 * line's end made whole on the first line; the next line keeps its indentation and the rest, and
 * goes when nothing is left of it (a blank line would end the paragraph).
 */
export function rejoinLineBreaks(text: string, words?: ReadonlySet<string>): string {
  if (!/[-\u2010\u00ad]\n/.test(text)) return text;
  const lines = text.split("\n");
  const known = words ?? documentWords(lines);
  const emptied = new Set<number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    const joined = rejoinAcross(lines[i]!, lines[i + 1]!, known);
    if (!joined) continue;
    const indent = /^[ \t]*/.exec(lines[i + 1]!)![0];
    lines[i] = joined.line;
    lines[i + 1] = joined.next === "" ? "" : `${indent}${joined.next}`;
    if (joined.next === "") emptied.add(i + 1);
  }
  return emptied.size ? lines.filter((_, i) => !emptied.has(i)).join("\n") : lines.join("\n");
}
