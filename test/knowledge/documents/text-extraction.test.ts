import { describe, expect, it } from "vitest";
import {
  extractionChangedSince,
  TEXT_EXTRACTION_VERSION,
} from "../../../src/knowledge/documents/text-extraction.js";

describe("extractionChangedSince", () => {
  it("names the formats a later version changed: HTML since version 1", () => {
    expect(TEXT_EXTRACTION_VERSION).toBe(2);
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
