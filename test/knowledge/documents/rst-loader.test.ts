import { describe, expect, it } from "vitest";
import { documentFormatFor } from "../../../src/knowledge/documents/document-format.js";
import { parseRst } from "../../../src/knowledge/documents/rst-loader.js";

describe("reStructuredText", () => {
  it("is the format of .rst files and of Sphinx's .rst.txt sources", () => {
    expect(documentFormatFor("docs/guide.rst")).toBe("rst");
    expect(documentFormatFor("html/_sources/library/pathlib.rst.txt")).toBe("rst");
    expect(documentFormatFor("notes.txt")).toBe("text");
  });

  it("has sections from its titles, levelled in the order their adornment first appears", () => {
    const source = [
      "=================",
      ":mod:`pathlib` --- paths",
      "=================",
      "",
      ".. module:: pathlib",
      "",
      "Path classes for every system.",
      "",
      "--------------",
      "",
      "Pure paths",
      "----------",
      "",
      "Pure paths never touch the disk.",
      "",
      "Operators",
      "^^^^^^^^^",
      "",
      "The slash operator joins paths::",
      "",
      "   >>> p / 'init.d'",
      "",
      "Concrete paths",
      "--------------",
      "",
      "They read the disk.",
    ].join("\n");
    const doc = parseRst(source, "pathlib.rst");
    expect(doc.title).toBe("pathlib --- paths");
    expect(doc.sections.map((s) => [s.level, s.headingPath, s.content])).toEqual([
      [1, ["pathlib --- paths"], ".. module:: pathlib\n\nPath classes for every system.\n\n--------------"],
      [2, ["pathlib --- paths", "Pure paths"], "Pure paths never touch the disk."],
      [
        3,
        ["pathlib --- paths", "Pure paths", "Operators"],
        "The slash operator joins paths::\n\n   >>> p / 'init.d'",
      ],
      [2, ["pathlib --- paths", "Concrete paths"], "They read the disk."],
    ]);
  });

  it("reads no title where the adornment is too short, indented text or a lone line of punctuation", () => {
    const source = ["Intro text", "--", "", "   indented", "   ----------", "", "==========", "", "end"].join(
      "\n",
    );
    const doc = parseRst(source, "notes");
    expect(doc.title).toBe("notes");
    expect(doc.sections.map((s) => s.heading)).toEqual([undefined]);
    expect(doc.sections[0]!.content).toContain("Intro text\n--");
  });
});
