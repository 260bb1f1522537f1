import { describe, expect, it } from "vitest";
import {
  extractionChangedSince,
  TEXT_EXTRACTION_VERSION,
} from "../../../src/knowledge/documents/text-extraction.js";

describe("extractionChangedSince", () => {
  it("names the formats a later version changed: web and Markdown pages since version 5", () => {
    expect(TEXT_EXTRACTION_VERSION).toBe(6);
    expect(extractionChangedSince(5, "docs/page.html")).toBe(true);
    expect(extractionChangedSince(5, "docs/page.htm.gz")).toBe(true);
    expect(extractionChangedSince(5, "docs/notes.md")).toBe(true);
    expect(extractionChangedSince(5, "docs/intro.mdx")).toBe(true);
    expect(extractionChangedSince(5, "docs/figures.xlsx")).toBe(false);
    expect(extractionChangedSince(5, "docs/notes.txt")).toBe(false);
    expect(extractionChangedSince(5, "docs/book.epub")).toBe(false);
  });

  it("names the formats a version changed: spreadsheets since version 4", () => {
    expect(extractionChangedSince(4, "docs/figures.xlsx")).toBe(true);
    expect(extractionChangedSince(4, "docs/figures.ods")).toBe(true);
    expect(extractionChangedSince(4, "docs/figures.csv")).toBe(false);
    expect(extractionChangedSince(4, "docs/report.docx")).toBe(false);
    expect(extractionChangedSince(4, "docs/page.html")).toBe(true);
    expect(extractionChangedSince(4, "docs/notes.md")).toBe(true);
  });

  it("names the formats a version changed: PDF and office documents since version 3", () => {
    expect(extractionChangedSince(3, "docs/manual.pdf")).toBe(true);
    expect(extractionChangedSince(3, "docs/report.docx")).toBe(true);
    expect(extractionChangedSince(3, "docs/book.epub")).toBe(true);
    expect(extractionChangedSince(3, "docs/page.html")).toBe(true);
    expect(extractionChangedSince(3, "docs/notes.md")).toBe(true);
    expect(extractionChangedSince(3, "docs/figures.csv")).toBe(false);
  });

  it("names the formats a version changed: HTML since version 1, text since version 2", () => {
    expect(extractionChangedSince(2, "docs/page.html")).toBe(true);
    expect(extractionChangedSince(2, "docs/passwd.txt")).toBe(true);
    expect(extractionChangedSince(2, "docs/rates.csv")).toBe(false);
    expect(extractionChangedSince(1, "docs/library/pathlib.html")).toBe(true);
    expect(extractionChangedSince(1, "docs/INDEX.HTM")).toBe(true);
    expect(extractionChangedSince(1, "docs/rates.csv")).toBe(false);
    expect(extractionChangedSince(1, "docs/unknown.xyz")).toBe(false);
  });

  it("nothing has changed since the current version", () => {
    expect(extractionChangedSince(TEXT_EXTRACTION_VERSION, "docs/page.html")).toBe(false);
  });
});
