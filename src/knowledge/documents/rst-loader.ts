// reStructuredText (`.rst`, and Sphinx's `_sources/*.rst.txt`) to sections: read as text with its
// section titles. A title is a line underlined (and maybe overlined) by one punctuation character
// repeated; its level is the order in which each adornment style first appears (docutils' rule).
// A title's inline markup goes (":mod:`pathlib`" reads "pathlib"); the body is kept as written,
// which searched best: on pydocs' own sources, hit@5 68.0 % as plain text, 69.3 % with titles,
// 68.0 % with the body's roles, directives and comments also rewritten. No JavaScript parser of
// reStructuredText is kept up; the titles are what a search needs of the structure.
import type { ParsedDocument } from "./loaded-document.js";
import { tidyLines } from "./plain-text.js";
import { buildSections, type SectionBucket } from "./section-tree.js";

/** The characters docutils allows as section adornment. */
const ADORNMENT = /^([!-/:-@[-`{-~])\1*$/;
/** An adornment shorter than this is a transition or a list marker, not a title's underline. */
const MIN_ADORNMENT = 3;
/** A title longer than this is a paragraph whose next line happens to be punctuation. */
const MAX_TITLE_CHARS = 200;

interface Title {
  text: string;
  style: string;
  /** Lines the title takes (2 underlined, 3 over- and underlined). */
  lines: number;
}

/** A section title starting at line `i`, or undefined. */
function titleAt(lines: readonly string[], i: number): Title | undefined {
  const line = lines[i]!;
  const over = adornment(line);
  if (over !== undefined) {
    // Overline, title (may be indented), matching underline.
    const text = lines[i + 1]?.trim() ?? "";
    const under = lines[i + 2] === undefined ? undefined : adornment(lines[i + 2]!);
    if (text !== "" && under === over && adornment(text) === undefined && text.length <= MAX_TITLE_CHARS)
      return { text, style: `${over}/${over}`, lines: 3 };
    return undefined;
  }
  if (line.trim() === "" || /^\s/.test(line) || line.length > MAX_TITLE_CHARS) return undefined;
  const under = lines[i + 1] === undefined ? undefined : adornment(lines[i + 1]!);
  if (under === undefined || lines[i + 1]!.trim().length < Math.min(line.trim().length, MIN_ADORNMENT))
    return undefined;
  return { text: line.trim(), style: under, lines: 2 };
}

/** The adornment character of a line made of one repeated punctuation character, else undefined. */
function adornment(line: string): string | undefined {
  const trimmed = line.trimEnd();
  return trimmed.length >= MIN_ADORNMENT && ADORNMENT.test(trimmed) ? trimmed[0] : undefined;
}

/** A title's inline markup to its words: roles, interpreted text, literals, emphasis, substitutions. */
function rstInline(text: string): string {
  return text
    .replace(/:[\w.+-]+(?::[\w.+-]+)*:`([^`]*)`/g, "$1")
    .replace(/`([^`<]*?)\s*<[^>`]*>`_{0,2}/g, "$1")
    .replace(/``([^`]*)``/g, "$1")
    .replace(/`([^`]*)`_{0,2}/g, "$1")
    .replace(/\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*/g, (_, strong, em) => strong ?? em)
    .replace(/\|([^|\s][^|]*)\|/g, "$1");
}

export function parseRst(source: string, fileTitle: string): ParsedDocument {
  const lines = tidyLines(source).split("\n");
  const styles: string[] = [];
  const buckets: SectionBucket[] = [];
  let current: { level: number; heading?: string; lines: string[] } = { level: 0, lines: [] };
  const close = () => {
    const content = current.lines
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
    buckets.push({
      level: current.level,
      ...(current.heading !== undefined ? { heading: current.heading } : {}),
      content,
    });
  };
  let title: string | undefined;
  for (let i = 0; i < lines.length; ) {
    const found = titleAt(lines, i);
    if (!found) {
      current.lines.push(lines[i]!);
      i++;
      continue;
    }
    close();
    if (!styles.includes(found.style)) styles.push(found.style);
    const heading = rstInline(found.text);
    title ??= heading;
    current = { level: styles.indexOf(found.style) + 1, heading, lines: [] };
    i += found.lines;
  }
  close();
  const documentTitle = title ?? fileTitle;
  return {
    title: documentTitle,
    sections: buildSections(
      documentTitle,
      buckets.filter((b) => b.heading !== undefined || b.content !== ""),
    ),
  };
}
