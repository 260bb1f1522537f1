// The product end to end: a bot folder with a model and a BYOK provider, the real embedded
// engine, the real corrective pass and the real Copilot runtime from @github/copilot-sdk,
// against a scripted model server on 127.0.0.1. What the model receives for a search is
// compared with what `second-look search <bot> <query> --json` says it would receive.
import { cp, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionConfig } from "@github/copilot-sdk";
import { describe, expect, it } from "vitest";
import { loadBot } from "../../src/bots/discovery.js";
import type { SearchJson } from "../../src/cli/search.js";
import { openBotBackend } from "../../src/connectors/open-bot-backend.js";
import { openBotRuntime } from "../../src/connectors/open-bot-runtime.js";
import {
  CORRECTIVE_NOTE_START,
  NO_BETTER_MATCH_NOTE_START,
  NOT_COVERED_NOTE_START,
} from "../../src/knowledge-tool/result-text.js";
import type { KnowledgeBackend } from "../../src/types.js";
import { e2eSession } from "../support/e2e-session.js";
import { HANDBOOK_UNCOVERED_QUERY, HANDBOOK_WEAK_QUERY } from "../support/handbook-queries.js";
import { cliOutput, runCli } from "../support/run-cli.js";
import { directiveScript, toolMessagesAfter } from "./connector/fixtures.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// Weak on the handbook, which answers it: re-queried, nothing better found (support/handbook-queries.ts).
const WEAK_QUERY = HANDBOOK_WEAK_QUERY;
/** "stock" and "vesting" are in no handbook page: the correction is the one not-covered line. */
const UNCOVERED_QUERY = "stock options vesting schedule";
const KEY_ENV = "SECOND_LOOK_E2E_KEY";

const e2e = e2eSession("second-look-session-", { script: directiveScript, maxRequests: 60 });

async function makeBot(name: string, protocol: "openai" | "anthropic", corrective: boolean): Promise<string> {
  const dir = join(e2e.root, name);
  await cp(join(repo, "bots/handbook/docs"), join(dir, "docs"), { recursive: true });
  const config = {
    description: "Brightwater handbook (e2e)",
    model: "e2e-model",
    provider: {
      type: protocol,
      baseUrl: protocol === "anthropic" ? e2e.server.url : e2e.server.openAiBaseUrl,
      apiKeyEnv: KEY_ENV,
    },
    knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
    correctiveRetrieval: { enabled: corrective, retryBudget: 1, grader: "signal" },
    session: { maxToolCalls: 4, timeoutMs: 60_000 },
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config));
  await writeFile(join(dir, "persona.md"), "You answer from the Brightwater handbook.");
  return dir;
}

/** Runs the CLI in-process and returns what it printed on stdout. */

async function askAndCapture(dir: string, question: string): Promise<string> {
  const from = e2e.server.requests.length;
  await cliOutput(["ask", dir, question, "--json"]);
  const { byCallId } = toolMessagesAfter(e2e.server, from);
  expect(byCallId.size).toBe(1);
  return [...byCallId.values()][0]!;
}

describe.each(["openai", "anthropic"] as const)("ask through the real runtime (%s provider)", (protocol) => {
  it("the model receives exactly `final` of `search --json`: the corrected text for a weak search", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    const dir = await makeBot(`on-${protocol}`, protocol, true);
    const received = await askAndCapture(dir, `search: ${WEAK_QUERY}`);
    const search = JSON.parse(await cliOutput(["search", dir, WEAK_QUERY, "--json"])) as SearchJson;
    expect(search.outcome?.changed).toBe(true);
    expect(search.final).not.toBe(search.original);
    expect(received).toBe(search.final);
    // Re-queried, nothing better found: the original results and one line after them.
    expect(search.outcome?.metadata.queriesTried.length).toBeGreaterThan(1);
    expect(received.split("\n").at(-1)!.startsWith(NO_BETTER_MATCH_NOTE_START)).toBe(true);
    expect(received).not.toContain(CORRECTIVE_NOTE_START);
  });

  it("the model receives exactly `final` of `search --json`: not covered, without a re-query, when the question's key words are in no page", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    const dir = await makeBot(`key-absent-${protocol}`, protocol, true);
    const received = await askAndCapture(dir, `search: ${HANDBOOK_UNCOVERED_QUERY}`);
    const search = JSON.parse(
      await cliOutput(["search", dir, HANDBOOK_UNCOVERED_QUERY, "--json"]),
    ) as SearchJson;
    expect(received).toBe(search.final);
    expect(search.outcome?.metadata).toMatchObject({ queriesTried: [], retries: 0 });
    expect(search.outcome?.metadata.notCovered?.terms).toEqual(["moving", "house"]);
    const lastLine = received.split("\n").at(-1)!;
    expect(lastLine.startsWith(NOT_COVERED_NOTE_START)).toBe(true);
    expect(received).not.toContain(CORRECTIVE_NOTE_START);
    for (const hit of search.response.results) expect(received).toContain(`doc_id: \`${hit.id}\``);
  });

  it("the model receives exactly `final` of `search --json`: the not-covered line when no page has the words", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    const dir = await makeBot(`uncovered-${protocol}`, protocol, true);
    const received = await askAndCapture(dir, `search: ${UNCOVERED_QUERY}`);
    const search = JSON.parse(await cliOutput(["search", dir, UNCOVERED_QUERY, "--json"])) as SearchJson;
    expect(search.outcome?.changed).toBe(true);
    expect(search.outcome?.metadata.notCovered?.terms).toEqual(["stock", "vesting"]);
    expect(received).toBe(search.final);
    // The original results stay; the note is the last line, naming the words no page contains.
    const lastLine = received.split("\n").at(-1)!;
    expect(lastLine.startsWith(NOT_COVERED_NOTE_START)).toBe(true);
    expect(lastLine).toContain('no document contains "stock", "vesting"]');
    expect(received).not.toContain("[corrective retrieval — re-query");
    for (const hit of search.response.results) expect(received).toContain(`doc_id: \`${hit.id}\``);
  });

  it("with CORRECTIVE_RETRIEVAL_DISABLED=1 the model receives the uncorrected text byte for byte", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    process.env.CORRECTIVE_RETRIEVAL_DISABLED = "1";
    const dir = await makeBot(`killed-${protocol}`, protocol, true);
    const received = await askAndCapture(dir, `search: ${WEAK_QUERY}`);
    const search = JSON.parse(
      await cliOutput(["search", dir, WEAK_QUERY, "--json", "--no-correct"]),
    ) as SearchJson;
    expect(received).toBe(search.original);
    expect(received).not.toContain("[corrective retrieval");
  });
});

describe("session wiring", () => {
  async function runtimeFor(
    dir: string,
    env: NodeJS.ProcessEnv,
    wrap?: (b: KnowledgeBackend) => KnowledgeBackend,
  ) {
    const bot = await loadBot(dir, { quiet: true, env });
    const configs: SessionConfig[] = [];
    const { backend } = await openBotBackend(bot);
    const { runtime } = await openBotRuntime(bot, {
      env,
      backend: wrap ? wrap(backend) : backend,
      onSessionConfig: (c) => configs.push(c),
    });
    return { runtime, configs };
  }
  const env = () => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", [KEY_ENV]: "sk-e2e" });

  it("registers no hook when correction is off for the bot, and the model gets the tool's text", async () => {
    const dir = await makeBot("off", "openai", false);
    const { runtime, configs } = await runtimeFor(dir, env());
    try {
      const from = e2e.server.requests.length;
      await runtime.ask(`search: ${WEAK_QUERY}`, { conversationId: "off" });
      expect(configs).toHaveLength(1);
      expect(configs[0]!.hooks).toBeUndefined();
      const search = JSON.parse(await cliOutput(["search", dir, WEAK_QUERY, "--json"])) as SearchJson;
      expect(search.outcome).toBeNull();
      expect([...toolMessagesAfter(e2e.server, from).byCallId.values()]).toEqual([search.original]);
    } finally {
      await runtime.close();
    }
  });

  it("reads the kill-switch when each session is created: no restart needed", async () => {
    const dir = await makeBot("switch", "openai", true);
    const live = env() as NodeJS.ProcessEnv;
    const { runtime, configs } = await runtimeFor(dir, live);
    try {
      await runtime.ask("search: annual leave", { conversationId: "before" });
      live.CORRECTIVE_RETRIEVAL_DISABLED = "1";
      await runtime.ask("search: annual leave", { conversationId: "after" });
      expect(configs.map((c) => c.hooks?.onPostToolUse !== undefined)).toEqual([true, false]);
    } finally {
      await runtime.close();
    }
  });

  it("a failing re-query leaves the original text at the model", async () => {
    const dir = await makeBot("flaky", "openai", true);
    let searches = 0;
    const failSecond = (backend: KnowledgeBackend): KnowledgeBackend => ({
      collections: () => backend.collections(),
      search: async (request, options) => {
        searches++;
        if (searches > 1) throw new Error("knowledge backend unavailable");
        return backend.search(request, options);
      },
    });
    const { runtime } = await runtimeFor(dir, env(), failSecond);
    try {
      const from = e2e.server.requests.length;
      await runtime.ask(`search: ${WEAK_QUERY}`, { conversationId: "flaky" });
      const search = JSON.parse(await cliOutput(["search", dir, WEAK_QUERY, "--json"])) as SearchJson;
      // The rescue round runs all of the index's candidates at once, plus the original query's
      // next page (its first page was full), so every one of them failed here (the model's own
      // search is the first); with none answering, nothing changes.
      const candidates = search.outcome?.metadata.queriesTried ?? [];
      expect(candidates.length).toBeGreaterThan(1);
      expect(searches).toBe(1 + candidates.length + 1);
      expect(search.final).not.toBe(search.original);
      expect([...toolMessagesAfter(e2e.server, from).byCallId.values()]).toEqual([search.original]);
    } finally {
      await runtime.close();
    }
  });
});

describe("ask --trace", () => {
  it("prints one tree per question: the model calls and the tool call with its corrective spans", async () => {
    process.env[KEY_ENV] = "sk-e2e";
    const dir = await makeBot("traced", "openai", true);
    const run = await runCli(["ask", dir, `search: ${WEAK_QUERY}`, "--trace"]);
    const err = run.stderr;
    expect(run.exitCode).toBe(0);
    const tree = err.split("\n").filter((line) => !line.startsWith("{"));
    const agent = tree.findIndex((l) => l.startsWith("invoke_agent traced"));
    expect(agent).toBeGreaterThanOrEqual(0);
    const below = tree.slice(agent + 1).join("\n");
    expect(below).toMatch(/[├└]─ chat e2e-model/);
    expect(below).toMatch(/[├└]─ execute_tool search_knowledge/);
    expect(below).toMatch(/knowledge_grade .*final="insufficient"/);
    // One re-query span for the rescue round (its candidates run in parallel, the original
    // query's next page beside them), naming the queries the outcome lists and the hits added.
    const search = JSON.parse(await cliOutput(["search", dir, WEAK_QUERY, "--json"])) as SearchJson;
    const metadata = search.outcome?.metadata;
    const candidates = metadata?.queriesTried ?? [];
    expect(candidates.length).toBeGreaterThan(1);
    const requeries = tree.slice(agent + 1).filter((l) => /[├└]─ knowledge_requery /.test(l));
    expect(requeries).toHaveLength(1);
    expect(requeries[0]).toContain(`queries=${candidates.map((q) => JSON.stringify(q)).join(",")}`);
    expect(requeries[0]).toContain(`new_hits=${metadata?.newHits[0]}`);
    expect(below.match(/chat e2e-model/g)?.length).toBe(2);
  });
});
