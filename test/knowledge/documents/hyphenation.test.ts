import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import {
  documentWords,
  parsedWithoutSoftHyphens,
  rejoinAcross,
  rejoinBrokenWord,
  rejoinLineBreaks,
  withoutSoftHyphens,
} from "../../../src/knowledge/documents/hyphenation.js";
import type { PdfRow } from "../../../src/knowledge/documents/pdf-rows.js";
import { pdfSections } from "../../../src/knowledge/documents/pdf-sections.js";
import { parseText } from "../../../src/knowledge/documents/text-loader.js";

describe("soft hyphens and word joiners", () => {
  it("are dropped, so the word is one term again", () => {
    const text = withoutSoftHyphens("Sicher\u00adheits\u00adaktualisierungen und In\u2060formation\ufeff");
    expect(text).toBe("Sicherheitsaktualisierungen und Information");
    expect(analyzerFor("de").analyze(text)).toEqual(
      analyzerFor("de").analyze("Sicherheitsaktualisierungen und Information"),
    );
  });

  it("are dropped from a parsed document's title, headings and text; one without them is returned as it is", () => {
    const section = {
      headingPath: ["Sicher\u00adheit", "Up\u00addates"],
      heading: "Up\u00addates",
      level: 1,
      content: "In\u00adhalt",
    };
    const parsed = { title: "Sicher\u00adheit", sections: [section] };
    expect(parsedWithoutSoftHyphens(parsed)).toEqual({
      title: "Sicherheit",
      sections: [{ headingPath: ["Sicherheit", "Updates"], heading: "Updates", level: 1, content: "Inhalt" }],
    });
    const plain = { title: "Plain", sections: [{ headingPath: ["Plain"], level: 0, content: "text" }] };
    expect(parsedWithoutSoftHyphens(plain)).toBe(plain);
  });

  it("leave text without them as it is", () => {
    const text = "zero\u200bwidth space stays a word break";
    expect(withoutSoftHyphens(text)).toBe(text);
  });
});

describe("a word broken at a line's end", () => {
  const none = new Set<string>();

  it("is joined when the document uses the whole word, or holds neither form", () => {
    expect(rejoinBrokenWord("configura", "tion", none)).toBe("configuration");
    expect(rejoinBrokenWord("check", "sum", documentWords(["the checksum of the file"]))).toBe("checksum");
    expect(rejoinBrokenWord("SIM", "PLE_BACKUP_SUFFIX", none)).toBe("SIMPLE_BACKUP_SUFFIX");
  });

  it("keeps its hyphen when the document writes it hyphenated, or it is already a compound", () => {
    expect(rejoinBrokenWord("read", "only", documentWords(["mount it read-only"]))).toBe("read-only");
    expect(rejoinBrokenWord("day-to", "day", none)).toBe("day-to-day");
    expect(rejoinBrokenWord("read", "only", documentWords(["read\u2010only"]))).toBe("read-only");
  });

  it("is checked against the document's words, its own halves not among them unless they stand alone", () => {
    const words = documentWords(["the second-", "level menu is speci-", "fied in the level file"]);
    expect([...words].sort()).toEqual(["file", "in", "is", "level", "menu", "the"]);
    expect(rejoinBrokenWord("speci", "fied", words)).toBe("specified");
  });

  it("keeps its hyphen between two words of the document that are no word together", () => {
    const words = documentWords(["a second table on the level below"]);
    expect(rejoinBrokenWord("second", "level", words)).toBe("second-level");
    // Short halves are no evidence: "com" and "puted" stand alone in URLs and names.
    expect(rejoinBrokenWord("com", "puted", documentWords(["example com puted"]))).toBe("computed");
    expect(rejoinAcross("a side-", "by-side view", none)).toEqual({ line: "a side-by", next: "-side view" });
  });

  it("is no broken word when the next line starts another one", () => {
    expect(rejoinBrokenWord("see", "Chapter", none)).toBeUndefined();
    expect(rejoinBrokenWord("step", "2", none)).toBeUndefined();
    expect(rejoinAcross("options -", "a list", none)).toBeUndefined();
    expect(rejoinAcross("a rule --", "and more", none)).toBeUndefined();
    expect(rejoinAcross("no hyphen", "here", none)).toBeUndefined();
  });

  it("after a dash belongs to an option or a compound and keeps its hyphen", () => {
    expect(rejoinAcross("use --no-", "recursion here", none)).toEqual({
      line: "use --no-recursion",
      next: "here",
    });
  });

  it("always joins at a soft hyphen, and at groff's U+2010 hyphen as at a hyphen", () => {
    expect(rejoinAcross("the configura\u00ad", "tion file", documentWords(["configura-tion"]))).toEqual({
      line: "the configuration",
      next: "file",
    });
    expect(rejoinAcross("Verzeich\u2010", "nis", none)).toEqual({ line: "Verzeichnis", next: "" });
  });

  it("in a manual page saved as text is whole, on the first line with its punctuation", () => {
    const page = [
      "LS(1)                            User Commands                           LS(1)",
      "",
      "NAME",
      "       ls - list directory contents",
      "",
      "DESCRIPTION",
      "       Sort entries alphabetically if none of -cftuvSUX nor --sort is speci-",
      "       fied.",
      "",
      "       List information about the direc-",
      "       tory contents. A read-",
      "       only mount is read-only.",
      "",
      "GNU coreutils 9.1                 September 2022                        LS(1)",
    ].join("\n");
    const doc = parseText(page, "ls.1");
    expect(doc.sections.map((s) => s.content)).toEqual([
      [
        "NAME",
        "       ls - list directory contents",
        "",
        "DESCRIPTION",
        "       Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.",
        "",
        "List information about the directory",
        "       contents. A read-only",
        "       mount is read-only.",
      ].join("\n"),
    ]);
  });

  it("in long lines is found, and a letter run longer than any word is left as it is", () => {
    const prose = "lorem ipsum ".repeat(2_000);
    const text = Array.from({ length: 50 }, () => `tion ${prose}configura-`).join("\n");
    const joined = rejoinLineBreaks(`start ${text}\ntion end`, none);
    expect(joined.match(/configuration/g)).toHaveLength(50);
    expect(joined).not.toContain("configura-");
    const long = `${"a".repeat(10_000)}-\nbc`;
    expect(rejoinLineBreaks(long, none)).toBe(long);
  });
});

describe("PDF rows", () => {
  const row = (text: string, y: number, page = 1): PdfRow => ({ page, y, size: 10, bold: false, text });

  it("joins a word broken at a row's end, on the same page or the next", () => {
    const rows = [
      row("Edit the configura-", 700),
      row("tion file, then the back-", 688),
      row("ground job restarts.", 800, 2),
      row("A read-only mount stays read-", 788, 2),
      row("only.", 776, 2),
    ];
    const [section] = pdfSections("Manual", rows, new Map(), 10_000);
    expect(section!.content).toBe(
      "Edit the configuration file, then the background\njob restarts. A read-only mount stays read-only.",
    );
    expect(section!.pages).toEqual({ start: 1, end: 2 });
  });

  it("leaves a hyphen before a paragraph break as it is", () => {
    const rows = [row("Options for pre-", 700), row("processing follow.", 640)];
    const [section] = pdfSections("Manual", rows, new Map(), 10_000);
    expect(section!.content).toBe("Options for pre-\n\nprocessing follow.");
  });
});
