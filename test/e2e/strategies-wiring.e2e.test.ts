// Design §7's wiring, through the CLI in-process against a loopback model: with
// `retrieval.rerankStrategy: "single-pass"` the corrective re-query is reranked by the bot's
// model (and only the re-query: the model's own search stays lexical); with the lexical default
// no model call is made; `ask --answer` writes one answer citing its sources with quotes.
import { cp, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { SearchJson } from "../../src/cli/search.js";
import { NO_BETTER_MATCH_NOTE_START } from "../../src/knowledge-tool/result-text.js";
import type { CitedAnswer } from "../../src/strategies/answer/cited-answer.js";
import { e2eSession } from "../support/e2e-session.js";
import { HANDBOOK_WEAK_QUERY } from "../support/handbook-queries.js";
import { cliOutput, runCli } from "../support/run-cli.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY_ENV = "SECOND_LOOK_STRATEGY_E2E_KEY";
// Weak on the handbook, which answers it: re-queried, nothing better found (support/handbook-queries.ts).
const WEAK_QUERY = HANDBOOK_WEAK_QUERY;
const ANSWER = "Full-time employees get 25 days of annual leave a year [1].";

// A selection prompt gets a selection (the second hit first); anything else gets the same
// sentence: a quote reply that is not JSON means no quote (fail soft), and the answer cites [1].
const e2e = e2eSession("second-look-strategies-", {
  script: ({ messages }) => {
    const system = messages.find((m) => m.role === "system");
    if (system && "text" in system && system.text.startsWith("You are a precise retrieval engine")) {
      return { kind: "text", text: '{"selected_section_ids":["hit_2","hit_1"]}' };
    }
    return { kind: "text", text: ANSWER };
  },
  maxRequests: 100,
});

async function makeBot(name: string, retrieval: Record<string, unknown>): Promise<string> {
  const dir = join(e2e.root, name);
  await cp(join(repo, "bots/handbook/docs"), join(dir, "docs"), { recursive: true });
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({
      model: "strategy-model",
      provider: { type: "openai", baseUrl: e2e.server.openAiBaseUrl, apiKeyEnv: KEY_ENV },
      knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
      correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
      retrieval,
    }),
  );
  return dir;
}

describe("retrieval strategies wired into a bot", () => {
  it("single-pass: the corrective re-query is reranked by the bot's model", async () => {
    process.env[KEY_ENV] = "sk-strategy";
    const dir = await makeBot("single-pass", { rerankStrategy: "single-pass" });
    const from = e2e.server.requests.length;
    const result = JSON.parse(await cliOutput(["search", dir, WEAK_QUERY, "--json"])) as SearchJson;
    expect(result.outcome?.metadata.retries).toBe(1);
    // One selection call per re-query, and none for the original search (the model's own:
    // lexical). The rescue round runs every candidate the index derived, in parallel, and the
    // original query's next page (its first page was full); each search is reranked on its own
    // before the rankings are fused.
    const tried = result.outcome?.metadata.queriesTried ?? [];
    expect(tried.length).toBeGreaterThan(1);
    const calls = e2e.server.requests.slice(from);
    expect(calls).toHaveLength(tried.length + 1);
    for (const call of calls) expect(call.raw).toContain("precise retrieval engine");
    for (const query of tried) expect(calls.filter((c) => c.raw.includes(query)).length).toBeGreaterThan(0);
    // The original query is reranked once: its next page, never its first (the model's own search).
    const widening = tried.filter((q) => q.includes(WEAK_QUERY)).length;
    expect(calls.filter((c) => c.raw.includes(WEAK_QUERY))).toHaveLength(1 + widening);
    // A reranked re-query still scores on the engine's scale: none beats the original.
    expect(result.final).toContain(NO_BETTER_MATCH_NOTE_START);
  });

  it("lexical (the default): no model call at all", async () => {
    process.env[KEY_ENV] = "sk-strategy";
    const dir = await makeBot("lexical", {});
    const from = e2e.server.requests.length;
    const result = JSON.parse(await cliOutput(["search", dir, WEAK_QUERY, "--json"])) as SearchJson;
    expect(result.outcome?.metadata.retries).toBe(1);
    expect(e2e.server.requests.length - from).toBe(0);
  });

  it("ask --answer: the model's answer, citing the top source with its document", async () => {
    process.env[KEY_ENV] = "sk-strategy";
    const dir = await makeBot("answer", {});
    const cited = JSON.parse(
      await cliOutput(["ask", dir, "how many vacation days do I get", "--answer", "--json"]),
    ) as CitedAnswer;
    expect(cited.answer).toBe(ANSWER);
    expect(cited.citations[0]).toMatchObject({
      n: 1,
      collection: "handbook",
      id: "docs/time-off/annual-leave.md",
    });
  });

  it("ask --answer without a model is one clear error", async () => {
    const dir = join(e2e.root, "no-model");
    await cp(join(repo, "bots/handbook/docs"), join(dir, "docs"), { recursive: true });
    await writeFile(
      join(dir, "config.json"),
      JSON.stringify({
        knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
      }),
    );
    const run = await runCli(["ask", dir, "anything", "--answer"]);
    const err = run.stderr;
    expect(run.exitCode).toBe(1);
    expect(err.trim().split("\n").at(-1)).toMatch(/^second-look ask: bot "no-model" has no "model"/);
  });
});
