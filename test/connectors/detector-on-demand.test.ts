// The language detector (eld's n-grams: tens of MB, up to half a second to load) loads only for a
// corrective pass whose query could be in another language than the documents (weakness.ts
// mayBeInAnotherLanguage): not a short query, not one holding the documents' own script, not one
// whose every word English documents hold — and a long one in another language is still caught.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { assembleBot } from "../../src/connectors/assemble-bot.js";
import { correctCall, searchCall } from "../../src/connectors/search-pipeline.js";
import { hit, response, stubBackend } from "../corrective/corrective-fixtures.js";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/knowledge/analysis/detect.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/knowledge/analysis/detect.js")>();
  return {
    ...actual,
    languageDetector: () => {
      loads.count++;
      return actual.languageDetector();
    },
  };
});

beforeEach(() => {
  loads.count = 0;
});

function bot(language = "en") {
  const config = BotConfigSchema.parse({
    knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**"], language } } },
    correctiveRetrieval: { enabled: true, grader: "signal" },
  });
  // Every search scores high: only the language can make one weak.
  const backend = stubBackend(
    (request) => response(request.query, [hit("docs", "footer.html", "Headers and Footers", 0.9)]),
    ["docs"],
  );
  const assembled = assembleBot({ config }, backend, {});
  const correct = assembled.correctFor()!;
  return async (query: string) => {
    const found = await assembled.backend.search({ query });
    return correct({
      toolName: "search_knowledge",
      toolArgs: { query },
      resultText: assembled.renderResult(found, false),
      signal: AbortSignal.timeout(20_000),
      scope: ["docs"],
    });
  };
}

describe("the corrective pass's language detector", () => {
  it("is not loaded for a query too short to have a language", async () => {
    const corrected = await bot()("pip install");
    expect(corrected?.metadata.languageMismatch).toBeUndefined();
    expect(loads.count).toBe(0);
  });

  it("is loaded for a longer query, and finds one in another language than the documents", async () => {
    const corrected = await bot()("Wie füge ich Seitenzahlen in die Fußzeile ein?");
    expect(loads.count).toBe(1);
    expect(corrected?.metadata.languageMismatch).toEqual({ query: "de", documents: ["en"] });
  });

  // A search that ran in-process carries how its words met the documents (QueryCoverage).
  async function structured(
    language: string,
    query: string,
    unmatchedShare: number,
    ownFunctionWords?: number,
  ) {
    const config = BotConfigSchema.parse({
      knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**"], language } } },
      correctiveRetrieval: { enabled: true, grader: "signal" },
    });
    const backend = stubBackend(
      (request) => ({
        ...response(request.query, [hit("docs", "footer.html", "Headers and Footers", 0.9)]),
        queryCoverage: {
          keyTermsInTopHit: 1,
          unmatchedShare,
          ...(ownFunctionWords !== undefined ? { ownFunctionWords } : {}),
        },
      }),
      ["docs"],
    );
    const assembled = assembleBot({ config }, backend, {});
    const call = await searchCall(assembled.pipeline, { query }, ["docs"]);
    return correctCall(assembled.correctorFor(), call, { signal: AbortSignal.timeout(20_000) });
  }

  it("is not loaded when English documents hold every word of the query", async () => {
    const corrected = await structured("en", "how do I insert page numbers in the footer", 0);
    expect(loads.count).toBe(0);
    expect(corrected.correction?.metadata.languageMismatch).toBeUndefined();
  });

  it("is loaded when a word of the query is in no document, and finds the other language", async () => {
    const corrected = await structured("en", "Wie füge ich Seitenzahlen in die Fußzeile ein?", 0.6);
    expect(loads.count).toBe(1);
    expect(corrected.correction?.metadata.languageMismatch).toEqual({ query: "de", documents: ["en"] });
  });

  it("is loaded over documents in another language than English even when they hold every word", async () => {
    // German documentation holds English words (commands, product names): its vocabulary says nothing.
    const corrected = await structured("de", "how do I insert page numbers in the footer of every page", 0);
    expect(loads.count).toBe(1);
    expect(corrected.correction?.metadata.languageMismatch).toEqual({ query: "en", documents: ["de"] });
  });

  it("is not loaded when German documents hold every word of a query that uses German function words", async () => {
    const corrected = await structured("de", "Wie füge ich Seitenzahlen in die Fußzeile ein?", 0, 4);
    expect(loads.count).toBe(0);
    expect(corrected.correction?.metadata.languageMismatch).toBeUndefined();
  });

  it("is not loaded for a query holding a letter of the documents' own script", async () => {
    const corrected = await bot("ru")("Как вставить номера страниц в нижний колонтитул?");
    expect(loads.count).toBe(0);
    expect(corrected?.metadata.languageMismatch).toBeUndefined();
  });
});
