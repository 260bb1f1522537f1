// A Norwegian bot end to end: a Bokmål HR handbook (test/fixtures/bots/personalhandbok) with
// `"language": "nb"`, the real embedded engine, the real corrective pass (signal grader) and the
// real Copilot runtime from @github/copilot-sdk against the scripted model server on 127.0.0.1.
// The model searches with words inflected otherwise than the page's ("søknadene" for "Søknad",
// "foreldrepermisjonene" for "foreldrepermisjon"); its next request must carry the Norwegian
// page's text and what the corrective pass did. The same bot with no language setting is
// detected as Norwegian and answers alike; analysed as English (`"language": "en"`) it must not
// find that page, so this fails if the collection's language stops reaching the engine.
import { cp, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { SearchJson } from "../../src/cli/search.js";
import { CORRECTIVE_NOTE_START, NO_BETTER_MATCH_NOTE_START } from "../../src/knowledge-tool/result-text.js";
import { e2eSession } from "../support/e2e-session.js";
import { cliOutput } from "../support/run-cli.js";
import { directiveScript, toolMessagesAfter } from "./connector/fixtures.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURE_DOCS = join(repo, "test/fixtures/bots/personalhandbok/docs");
/**
 * Weak on the handbook, though the leave page answers it and ranks first: "fristene" and
 * "pappaperm" are in no page and the other words are inflected otherwise than the page's, so the
 * search is flagged low-confidence (23 % relevant). The two absent words carry 0.46 of the query's
 * weight together, under KEY_ABSENT_TERM_MIN_SHARE (src/corrective/signal-grader.ts): not the
 * subject, so the pass re-queries without them (WITHOUT_ABSENT) rather than saying "not covered";
 * no re-query beats the original, so it appends nothing and says so. Every word is one an English
 * analysis matches in no page.
 */
const QUERY = "fristene søknadene foreldrepermisjonene kvotene prosenten pappaperm";
const WITHOUT_ABSENT = "søknadene foreldrepermisjonene kvotene prosenten";
const PAGE_ID = "docs/permisjon.md";
/** A sentence of the leave page's "Søknad om foreldrepermisjon" section. */
const PAGE_TEXT = "Søknaden sendes til nærmeste leder og til NAV senest fire uker før permisjonen starter.";
const KEY_ENV = "SECOND_LOOK_E2E_KEY";

const e2e = e2eSession("second-look-nb-", { script: directiveScript, maxRequests: 20 });

/** The handbook bot; `language` undefined leaves the setting out (the language is then detected). */
async function makeBot(name: string, language: string | undefined): Promise<string> {
  const dir = join(e2e.root, name);
  await cp(FIXTURE_DOCS, join(dir, "docs"), { recursive: true });
  const collection = { paths: ["docs/**/*.md"], ...(language ? { language } : {}) };
  const config = {
    description: "Fjordlys personalhåndbok (e2e)",
    model: "e2e-model",
    provider: { type: "openai", baseUrl: e2e.server.openAiBaseUrl, apiKeyEnv: KEY_ENV },
    knowledge: { backend: "embedded", collections: { personal: collection } },
    correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
    session: { maxToolCalls: 4, timeoutMs: 60_000 },
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config));
  await writeFile(join(dir, "persona.md"), "Du svarer ut fra Fjordlys' personalhåndbok, på norsk.");
  return dir;
}

/** Asks through the real runtime; returns the one tool result the model's next request carried. */
async function toolResultTheModelReceives(dir: string, collectionNamed?: string): Promise<string> {
  const from = e2e.server.requests.length;
  await cliOutput(["ask", dir, `search: ${QUERY}`, "--json"]);
  const { byCallId } = toolMessagesAfter(e2e.server, from);
  expect(byCallId.size).toBe(1);
  // The search tool tells the model the collection's language, so it can search in it.
  if (collectionNamed === undefined) return [...byCallId.values()][0]!;
  const tools =
    (e2e.server.requests[from]!.body as { tools?: { function: { name: string; description: string } }[] })
      .tools ?? [];
  expect(tools.find((t) => t.function.name === "search_knowledge")?.function.description).toContain(
    collectionNamed,
  );
  return [...byCallId.values()][0]!;
}

async function searchJson(dir: string): Promise<SearchJson> {
  return JSON.parse(await cliOutput(["search", dir, QUERY, "--json"])) as SearchJson;
}

describe("a Norwegian bot through the real Copilot runtime", () => {
  it("the model receives the corrected text with the Norwegian page, exactly `final` of `search --json`", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    const dir = await makeBot("nb", "nb");
    const received = await toolResultTheModelReceives(dir, "personal (Norwegian Bokmål)");
    const search = await searchJson(dir);

    // The first search found the leave page through its stems, but weakly: the pass re-queried
    // without the absent words, found nothing better, and said so after the original results.
    expect(search.response.results[0]?.id).toBe(PAGE_ID);
    expect(search.response.bestScore).toBeLessThan(0.25);
    expect(search.outcome?.changed).toBe(true);
    expect(search.outcome?.metadata.queriesTried ?? []).toContain(WITHOUT_ABSENT);

    expect(received).toBe(search.final);
    expect(received).toContain(`doc_id: \`${PAGE_ID}\``);
    expect(received).toContain("**Søknad om foreldrepermisjon**");
    expect(received).toContain(PAGE_TEXT);
    expect(received.split("\n").at(-1)!.startsWith(NO_BETTER_MATCH_NOTE_START)).toBe(true);
    expect(received).not.toContain(CORRECTIVE_NOTE_START);
  });

  it("with no language setting the bot is detected as Norwegian and answers as the nb bot does", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    const tagged = await searchJson(await makeBot("nb-tagged", "nb"));
    const dir = await makeBot("unset", undefined);
    const received = await toolResultTheModelReceives(dir, "personal (Norwegian Bokmål)");
    const search = await searchJson(dir);
    expect(search.response).toEqual(tagged.response);
    expect(search.final).toBe(tagged.final);
    expect(received).toBe(search.final);
    expect(received).toContain(PAGE_TEXT);
  });

  it("analysed as English (`language: en`), the same bot does not find the page", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    const dir = await makeBot("en", "en");
    const search = await searchJson(dir);
    expect(search.response.results.map((hit) => hit.id)).not.toContain(PAGE_ID);
    const received = await toolResultTheModelReceives(dir);
    expect(received).toBe(search.final);
    expect(received).not.toContain(PAGE_TEXT);
    expect(received).not.toContain(`doc_id: \`${PAGE_ID}\``);
  });
});
