import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { documentIdFor } from "../../../src/knowledge/documents/document-id.js";
import { type LoadDocumentResult, loadDocument } from "../../../src/knowledge/documents/load-document.js";

// The example bot's pages are what a first-time user indexes and searches: they must all
// load cleanly and keep the size and structure the bot was written for.
const botDir = fileURLToPath(new URL("../../../bots/handbook", import.meta.url));
const docsDir = join(botDir, "docs");
const pages = readdirSync(docsDir, { recursive: true, encoding: "utf8" })
  .filter((p) => p.endsWith(".md"))
  .map((p) => join(docsDir, p))
  .sort();

describe("bots/handbook", () => {
  it("has a config.json for the embedded backend with signal grading and no model", () => {
    const config = JSON.parse(readFileSync(join(botDir, "config.json"), "utf8"));
    expect(typeof config.description).toBe("string");
    expect({ ...config, description: undefined }).toEqual({
      description: undefined,
      persona: "persona.md",
      knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
      correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
    });
    expect(readFileSync(join(botDir, "persona.md"), "utf8")).toContain("search_knowledge");
  });

  it("has a dozen or more pages that load into distinct titles and several sections each", async () => {
    expect(pages.length).toBeGreaterThanOrEqual(12);
    const titles = new Set<string>();
    for (const page of pages) {
      const result: LoadDocumentResult = await loadDocument(page, documentIdFor(docsDir, page)!);
      if (!result.ok) throw new Error(`${page}: ${result.reason}`);
      const words = result.doc.text.split(/\s+/).length;
      expect(words, page).toBeGreaterThanOrEqual(300);
      expect(words, page).toBeLessThanOrEqual(900);
      expect(result.doc.sections.filter((s) => s.level >= 2).length, page).toBeGreaterThanOrEqual(3);
      titles.add(result.doc.title);
    }
    expect(titles.size).toBe(pages.length);
  });

  it("answers how many vacation days an employee gets", async () => {
    const result = await loadDocument(
      join(docsDir, "time-off", "annual-leave.md"),
      "time-off/annual-leave.md",
    );
    expect(result.ok && result.doc.title).toBe("Annual Leave (PTO)");
    expect(result.ok && result.doc.text).toMatch(/25 days of paid annual leave per calendar year/);
  });
});
