// Each format's parser is loaded by the first file of its format: a parser thread given only
// Markdown loads no PDF, Office, HTML-page or plain-text parser. Each mock below records that its
// module was loaded, and is the module itself otherwise.
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";

const { loaded, recording } = vi.hoisted(() => {
  const loaded = new Set<string>();
  /** A mock factory that records `name` and hands back the module itself. */
  const recording = (name: string) => async (importOriginal: () => Promise<unknown>) => {
    loaded.add(name);
    return importOriginal();
  };
  return { loaded, recording };
});

vi.mock("../../../src/knowledge/documents/pdf-loader.js", recording("pdf"));
vi.mock("../../../src/knowledge/documents/office-loader.js", recording("office"));
vi.mock("../../../src/knowledge/documents/text-loader.js", recording("text"));
vi.mock("../../../src/knowledge/documents/markdown-loader.js", recording("markdown"));

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
