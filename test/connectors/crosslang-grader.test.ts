// A German question over an English collection, through the bot's composition (assembleBot):
// the model grader's request, as the fake model server receives it over the real Anthropic
// provider code, names the collection's language and asks for the rewrite in it; `auto` asks
// about such a search although it scored high, and the English rewrite is what is re-searched.
import { afterEach, describe, expect, it } from "vitest";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { assembleBot } from "../../src/connectors/assemble-bot.js";
import { hit, response, stubBackend } from "../corrective/corrective-fixtures.js";
import { type ModelServer, startModelServer } from "../support/model-server/model-server.js";

const GERMAN = "Wie füge ich Seitenzahlen in die Fußzeile ein?";
const REWRITE = "insert page numbers footer";
const KEY_VARIABLE = "CROSSLANG_GRADER_KEY";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(grader: "haiku" | "auto") {
  server = await startModelServer({
    maxRequests: 10,
    script: () => ({
      kind: "text",
      text: JSON.stringify({
        verdict: "insufficient",
        rewrittenQuery: REWRITE,
        reason: "the question is German; the results are unrelated",
      }),
    }),
  });
  const config = BotConfigSchema.parse({
    knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**"], language: "en" } } },
    correctiveRetrieval: {
      enabled: true,
      grader,
      graderProvider: { type: "anthropic", baseUrl: server.url, apiKeyEnv: KEY_VARIABLE },
    },
  });
  // Every search scores high: only the language can make the first one weak.
  const backend = stubBackend(
    (request) =>
      response(request.query, [
        request.query === REWRITE
          ? hit("docs", "page-numbers.html", "Page Numbers", 0.9, "Insert - Page Number")
          : hit("docs", "footer.html", "Headers and Footers", 0.9, "Insert - Header and Footer"),
      ]),
    ["docs"],
  );
  const assembled = assembleBot({ config }, backend, { [KEY_VARIABLE]: "test-key" });
  const correct = assembled.correctFor()!;
  const search = async (query: string) => {
    const found = await assembled.backend.search({ query });
    return correct({
      toolName: "search_knowledge",
      toolArgs: { query },
      resultText: assembled.renderResult(found, false),
      question: query,
      signal: AbortSignal.timeout(20_000),
      scope: ["docs"],
    });
  };
  return { backend, search, server };
}

describe("the model grader on a question in another language than the documents", () => {
  it("is told the collection's language and the question's, and asked to rewrite into English", async () => {
    const { search, server } = await setup("haiku");
    const corrected = await search(GERMAN);
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    const user = request.parsed.messages.find((m) => m.role === "user")!.text;
    expect(user).toContain("AVAILABLE COLLECTIONS: docs (English)");
    expect(user).toContain(
      "DOCUMENT LANGUAGE: English. The question is in German: write every query and the hypothetical answer in English.",
    );
    expect(request.raw).toContain("in the documents' language (DOCUMENT LANGUAGE, when given)");
    expect(corrected?.text).toContain(`re-searched "${REWRITE}"`);
    expect(corrected?.text).toContain("page-numbers.html");
  });

  it("auto asks the model on the German question, and not on the same search asked in English", async () => {
    const { backend, search, server } = await setup("auto");
    await search("How do I insert page numbers in the footer?");
    expect(server.requests).toHaveLength(0);
    await search(GERMAN);
    expect(server.requests).toHaveLength(1);
    expect(backend.requests.map((r) => r.query)).toContain(REWRITE);
  });
});
