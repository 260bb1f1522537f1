import { describe, expect, it } from "vitest";
import {
  extractionChangedSince,
  TEXT_EXTRACTION_VERSION,
} from "../../../src/knowledge/documents/text-extraction.js";

/** [extraction an index was built from, a file, whether this version reads the file differently]. */
const CHANGES: readonly (readonly [number, string, boolean])[] = [
  // 6: web pages keep their headings' ids (Markdown's attribute lists, rare, wait for a change).
  [5, "docs/page.html", true],
  [5, "docs/page.htm.gz", true],
  [5, "docs/notes.md", false],
  [5, "docs/intro.mdx", false],
  [5, "docs/figures.xlsx", false],
  [5, "docs/notes.txt", false],
  [5, "docs/book.epub", false],
  // 5: spreadsheets' parts each open with the first row.
  [4, "docs/figures.xlsx", true],
  [4, "docs/figures.ods", true],
  [4, "docs/figures.csv", false],
  [4, "docs/report.docx", false],
  // 4: PDF and office documents, text, reStructuredText.
  [3, "docs/manual.pdf", true],
  [3, "docs/report.docx", true],
  [3, "docs/book.epub", true],
  [3, "docs/figures.csv", false],
  // 3: text; 2: HTML.
  [2, "docs/passwd.txt", true],
  [2, "docs/rates.csv", false],
  [1, "docs/library/pathlib.html", true],
  [1, "docs/INDEX.HTM", true],
  [1, "docs/rates.csv", false],
  [1, "docs/unknown.xyz", false],
];

describe("extractionChangedSince", () => {
  it("is at version 6", () => {
    expect(TEXT_EXTRACTION_VERSION).toBe(6);
  });

  for (const [since, path, changed] of CHANGES) {
    it(`${path} built from extraction ${since}: ${changed ? "read again" : "kept"}`, () => {
      expect(extractionChangedSince(since, path)).toBe(changed);
    });
  }

  it("nothing has changed since the current version", () => {
    expect(extractionChangedSince(TEXT_EXTRACTION_VERSION, "docs/page.html")).toBe(false);
    expect(extractionChangedSince(TEXT_EXTRACTION_VERSION, "docs/notes.md")).toBe(false);
  });
});
