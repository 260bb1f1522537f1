// What the human (non --json) commands print comes partly from documents and file names, which
// anyone who can put a file in a bot folder controls. On a terminal an escape sequence in a
// title or a file name could rewrite the screen or forge output; so every control character
// except the newline and the tab is written as a visible escape.
import { escapeControlCharacters } from "../protocol/untrusted-text.js";

/** `text` with control characters other than \n and \t escaped; lines and tabs kept. */
export function terminalText(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .split("\t")
        .map((part) => escapeControlCharacters(part))
        .join("\t"),
    )
    .join("\n");
}

/** `1 file`, `2 files`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
