import { describe, expect, it } from "vitest";
import { withoutTerminalFormatting } from "../../../src/knowledge/documents/terminal-text.js";
import { parseText } from "../../../src/knowledge/documents/text-loader.js";

describe("text saved from a terminal", () => {
  it("shows overstruck bold and underline as their letters", () => {
    expect(withoutTerminalFormatting("N\bNA\bAM\bME\bE")).toBe("NAME");
    expect(withoutTerminalFormatting("l\bls\bs [_\bO_\bP_\bT_\bI_\bO_\bN]")).toBe("ls [OPTION]");
    expect(withoutTerminalFormatting("a\b_\ba and \u{1F600}\b\u{1F600} stay whole")).toBe(
      "a and \u{1F600} stay whole",
    );
  });

  it("drops colours, cursor moves and links, keeping their text", () => {
    expect(withoutTerminalFormatting("plain \x1b[1;31mred bold\x1b[0m text\x1b[K")).toBe(
      "plain red bold text",
    );
    expect(
      withoutTerminalFormatting("see \x1b]8;;man:ls(1)\x1b\\ls(1)\x1b]8;;\x1b\\ and \x1b]0;title\x07more"),
    ).toBe("see ls(1) and more");
    expect(withoutTerminalFormatting("a lone \x1b escape and a \b backspace")).toBe(
      "a lone escape and a backspace",
    );
  });

  it("leaves text without control characters as it is", () => {
    const text = "tabs\tand\nlines, Ümlaute, 日本語";
    expect(withoutTerminalFormatting(text)).toBe(text);
  });

  it("is how a manual page kept with its formatting is read", () => {
    const page = [
      "LS(1)                            User Commands                           LS(1)",
      "",
      "N\bNA\bAM\bME\bE",
      "       ls - list directory contents",
      "",
      "S\bSY\bYN\bNO\bOP\bPS\bSI\bIS\bS",
      "       l\bls\bs [_\bO_\bP_\bT_\bI_\bO_\bN]... [_\bF_\bI_\bL_\bE]...",
    ].join("\n");
    const doc = parseText(page, "ls.txt");
    expect(doc.title).toBe("ls - list directory contents");
    expect(doc.sections.map((s) => s.content)).toEqual([
      "NAME\n       ls - list directory contents\n\nSYNOPSIS\n       ls [OPTION]... [FILE]...",
    ]);
  });
});
