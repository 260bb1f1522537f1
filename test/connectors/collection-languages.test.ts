// Each collection's language where the model reads about the collections: the search tool's
// description (Copilot SDK and MCP), list_collections, and the bot's own composition (config
// language, "auto" read from the index, Huginn unknown).
import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { collectionLanguages, DETECTED_PER_DOCUMENT } from "../../src/connectors/collection-languages.js";
import { createKnowledgeTools } from "../../src/connectors/copilot-sdk/knowledge-tools.js";
import { renderCollections } from "../../src/connectors/mcp/render-collections.js";
import { searchDescription } from "../../src/connectors/mcp/tool-descriptions.js";
import { SEARCH_IN_DOCUMENT_LANGUAGE } from "../../src/knowledge-tool/language-names.js";
import type { CollectionLanguage, KnowledgeBackend } from "../../src/types.js";

const languages: Record<string, CollectionLanguage> = {
  docs: { tags: ["en"], name: "English" },
  håndbok: { tags: ["nb"], name: "Norwegian Bokmål" },
};

const backend: KnowledgeBackend = {
  collections: () => ["docs", "håndbok"],
  search: async (request) => ({ query: request.query, results: [], bestScore: 0, reranked: false }),
};

describe("the search tool's description names each collection's language", () => {
  it("Copilot SDK: by name beside the collection, with the advice to search in it", () => {
    const [search] = createKnowledgeTools({
      backend,
      renderResult: () => "",
      collectionLanguages: languages,
    });
    expect(search!.description).toContain("Collections: docs (English), håndbok (Norwegian Bokmål).");
    expect(search!.description).toContain(SEARCH_IN_DOCUMENT_LANGUAGE);
  });

  it("Copilot SDK: without known languages, the names alone and no advice", () => {
    const [search] = createKnowledgeTools({ backend, renderResult: () => "" });
    expect(search!.description).toContain("Collections: docs, håndbok.");
    expect(search!.description).not.toContain(SEARCH_IN_DOCUMENT_LANGUAGE);
  });

  it("MCP: the same names and advice", () => {
    const text = searchDescription({ collections: ["docs", "håndbok"], languages, corrective: true });
    expect(text).toContain("Collections: docs (English), håndbok (Norwegian Bokmål).");
    expect(text).toContain(SEARCH_IN_DOCUMENT_LANGUAGE);
    expect(searchDescription({ collections: ["docs"], corrective: false })).not.toContain(
      SEARCH_IN_DOCUMENT_LANGUAGE,
    );
  });

  it("list_collections says each embedded collection's language", () => {
    const text = renderCollections(
      [
        { name: "docs", documents: 3, chunks: 9 },
        { name: "håndbok", documents: 2, chunks: 4 },
      ],
      "embedded",
      languages,
    );
    expect(text).toBe(
      "**Loaded collections:**\n\n- **docs**: 3 documents, 9 sections, in English\n- **håndbok**: 2 documents, 4 sections, in Norwegian Bokmål",
    );
  });
});

describe("collectionLanguages (from the bot's config, and the index for auto)", () => {
  const config = (collections: Record<string, unknown>, backendName = "embedded") =>
    BotConfigSchema.parse({ knowledge: { backend: backendName, collections } });

  it("a Huginn bot's collections have no language here", () => {
    const huginn = BotConfigSchema.parse({
      knowledge: { backend: "huginn", huginn: { url: "http://127.0.0.1:1", collections: ["wiki"] } },
    });
    expect(collectionLanguages(huginn)).toEqual({});
  });

  it("names the configured language, English when none is set", () => {
    expect(
      collectionLanguages(config({ a: { paths: ["a/**"], language: "nb-NO" }, b: { paths: ["b/**"] } })),
    ).toEqual({
      a: { tags: ["nb"], name: "Norwegian Bokmål" },
      b: { tags: ["en"], name: "English" },
    });
  });

  it("an auto collection: the languages its index holds, else unknown", () => {
    const auto = config({ mixed: { paths: ["m/**"], language: "auto" } });
    expect(collectionLanguages(auto)).toEqual({ mixed: { tags: [], name: DETECTED_PER_DOCUMENT } });
    const engine = KnowledgeEngine.fromDocuments(
      {
        mixed: [
          { id: "a", title: "A", sections: [{ headingPath: [], content: "alpha" }], language: "de" },
          { id: "b", title: "B", sections: [{ headingPath: [], content: "beta" }], language: "de" },
          { id: "c", title: "C", sections: [{ headingPath: [], content: "gamma" }], language: "en" },
        ],
      },
      { language: "auto" },
    );
    expect(collectionLanguages(auto, engine)).toEqual({
      mixed: { tags: ["de", "en"], name: "German and English" },
    });
  });
});
