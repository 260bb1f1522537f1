// The language detector (eld's n-grams: tens of MB, a quarter of a second to load) loads only for
// a corrective pass whose query has letters enough to be in another language: a short query is
// never a language mismatch, so its pass goes without it — and a long one in another language is
// still caught.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { assembleBot } from "../../src/connectors/assemble-bot.js";
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

function bot() {
  const config = BotConfigSchema.parse({
    knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**"], language: "en" } } },
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
});
