// What the human (non --json) commands print comes partly from documents and file names, which
// anyone who can put a file in a bot folder controls. On a terminal an escape sequence in a
// title or a file name could rewrite the screen or forge output; so every control character
// except the newline and the tab is written as a visible escape.
import { styleText } from "node:util";
import { parseDocIdLine } from "../knowledge-tool/result-text.js";
import { escapeUntrusted } from "../knowledge-tool/untrusted-text.js";

/** `text` with control characters other than \n and \t escaped, and bidirectional and invisible ones; lines and tabs kept. */
export function terminalText(text: string): string {
  return escapeUntrusted(text, "text");
}

/** `1 file`, `2 files`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Whether `stream` is a terminal a person reads, in colour: a TTY, and NO_COLOR (no-color.org)
 * unset. Piped or redirected output stays the exact text, for scripts and for diffing.
 */
export function styledTerminal(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true && !env.NO_COLOR;
}

const HEADING = /^(#{1,6})[ \t]+(.*)$/;
const STRONG = /\*\*([^*\n]+)\*\*/g;
const EMPHASIS_LINE = /^\*([^*\n].*[^*\n]|[^*\n])\*$/;

/**
 * Markdown as a person reads it on a terminal: headings and **strong** text in bold (their
 * markers dropped), a line in *emphasis* (the result's notes and footer) in italics, doc-id
 * lines dimmed. The words are the model's own; control characters are escaped first
 * ({@link terminalText}), so a document cannot smuggle an escape sequence through the styling.
 */
export function markdownForTerminal(text: string): string {
  // The caller decided the stream takes styling (styledTerminal); styleText's own check would
  // look at process.stdout, which is not always the stream written to.
  const style = (format: "bold" | "dim" | "italic", part: string) =>
    styleText(format, part, { validateStream: false });
  return terminalText(text)
    .split("\n")
    .map((line) => {
      const heading = HEADING.exec(line);
      if (heading) return style("bold", heading[2]!);
      if (parseDocIdLine(line)) return style("dim", line);
      const emphasis = EMPHASIS_LINE.exec(line);
      if (emphasis) return style("italic", emphasis[1]!);
      return line.replace(STRONG, (_m, inner: string) => style("bold", inner));
    })
    .join("\n");
}

/** The text for a person on a styled terminal, else exactly as it is (control characters escaped). */
export function humanText(text: string, stream: NodeJS.WritableStream): string {
  return styledTerminal(stream) ? markdownForTerminal(text) : terminalText(text);
}
