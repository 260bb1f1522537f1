// Each format's parser is loaded by the first file of its format: a parser thread given only
// Markdown loads no PDF, Office, HTML-page or plain-text parser. Each mock below records that its
// module was loaded, and is the module itself otherwise.
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";

const loaded = vi.hoisted(() => new Set<string>());

vi.mock("../../../src/knowledge/documents/pdf-loader.js", async (importOriginal) => {
  loaded.add("pdf");
  return importOriginal();
});
vi.mock("../../../src/knowledge/documents/office-loader.js", async (importOriginal) => {
  loaded.add("office");
  return importOriginal();
});
vi.mock("../../../src/knowledge/documents/text-loader.js", async (importOriginal) => {
  loaded.add("text");
  return importOriginal();
});
vi.mock("../../../src/knowledge/documents/markdown-loader.js", async (importOriginal) => {
  loaded.add("markdown");
  return importOriginal();
});

const { loadDocument } = await import("../../../src/knowledge/documents/load-document.js");
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/documents/${name}`, import.meta.url));

describe("the parsers a file loads", () => {
  it("none before the first file, then only its format's", async () => {
    expect([...loaded]).toEqual([]);
    const markdown = await loadDocument(fixture("leave-policy.md"), "leave-policy.md");
    expect(markdown.ok).toBe(true);
    expect([...loaded]).toEqual(["markdown"]);
    const text = await loadDocument(fixture("notes.txt"), "notes.txt");
    expect(text.ok).toBe(true);
    expect([...loaded].sort()).toEqual(["markdown", "text"]);
  });
});
