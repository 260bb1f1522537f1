// What `search` and `ask` print for a person: styled markdown on a colour terminal, the exact
// text the model reads when piped (scripts, diffs) or when NO_COLOR is set.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { humanText, markdownForTerminal, styledTerminal } from "../../src/cli/terminal-text.js";

const BOLD = "\u001b[1m";
const DIM = "\u001b[2m";
const ITALIC = "\u001b[3m";

function stream(isTTY: boolean): Writable {
  const out = new Writable({ write: (_c, _e, done) => done() });
  return Object.assign(out, { isTTY });
}

const RESULT = [
  "## 1. Vacation policy  (relevance 0.82, high)",
  "collection: `handbook` doc_id: `vacation.md`",
  "Staff get **25 days** of paid leave.",
  '*Weak match — try: broader query: "leave"*',
].join("\n");

describe("markdown on a terminal", () => {
  it("drops heading and strong markers for bold, dims doc-id lines, italicises note lines, keeps the words", () => {
    const out = markdownForTerminal(RESULT);
    const lines = out.split("\n");
    expect(lines[0]).toBe(`${BOLD}1. Vacation policy  (relevance 0.82, high)\u001b[22m`);
    expect(lines[1]).toBe(`${DIM}collection: \`handbook\` doc_id: \`vacation.md\`\u001b[22m`);
    expect(lines[2]).toBe(`Staff get ${BOLD}25 days\u001b[22m of paid leave.`);
    expect(lines[3]).toBe(`${ITALIC}Weak match — try: broader query: "leave"\u001b[23m`);
    expect(out.replace(/\u001b\[\d+m/g, "")).toBe(
      RESULT.replace("## ", "")
        .replace(/\*\*/g, "")
        .replace(/^\*|\*$/gm, ""),
    );
  });

  it("escapes a document's own escape sequences before styling", () => {
    expect(markdownForTerminal("# Title \u001b[2J")).toBe(`${BOLD}Title \\u001b[2J\u001b[22m`);
  });

  it("styles only a colour TTY: piped output and NO_COLOR get the exact text", () => {
    expect(styledTerminal(stream(true), {})).toBe(true);
    expect(styledTerminal(stream(true), { NO_COLOR: "1" })).toBe(false);
    expect(styledTerminal(stream(false), {})).toBe(false);
    expect(humanText(RESULT, stream(false))).toBe(RESULT);
  });
});
