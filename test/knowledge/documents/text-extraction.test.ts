import { describe, expect, it } from "vitest";
import {
  extractionChangedSince,
  TEXT_EXTRACTION_VERSION,
} from "../../../src/knowledge/documents/text-extraction.js";

describe("extractionChangedSince", () => {
  it("names the formats a later version changed: HTML since version 1, text since version 2", () => {
    expect(TEXT_EXTRACTION_VERSION).toBe(3);
    expect(extractionChangedSince(2, "docs/page.html")).toBe(true);
    expect(extractionChangedSince(2, "docs/passwd.txt")).toBe(true);
    expect(extractionChangedSince(2, "docs/notes.md")).toBe(false);
    expect(extractionChangedSince(2, "docs/report.docx")).toBe(false);
    expect(extractionChangedSince(1, "docs/library/pathlib.html")).toBe(true);
    expect(extractionChangedSince(1, "docs/INDEX.HTM")).toBe(true);
    expect(extractionChangedSince(1, "docs/notes.md")).toBe(false);
    expect(extractionChangedSince(1, "docs/manual.pdf")).toBe(false);
    expect(extractionChangedSince(1, "docs/unknown.xyz")).toBe(false);
  });

  it("nothing has changed since the current version", () => {
    expect(extractionChangedSince(TEXT_EXTRACTION_VERSION, "docs/page.html")).toBe(false);
  });
});
