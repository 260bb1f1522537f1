/**
 * Load on `second-look mcp <bot>`: N concurrent `search_knowledge` calls over ONE stdio
 * connection (the official MCP client, the server spawned from source as a client would run
 * it), for a Huginn bot against a loopback Huginn-compatible server. Every query is weak, so
 * every call also runs the corrective pass (a second, rerank=true search with Huginn's broader
 * hint). The server answers each search after a small delay that differs per query, so answers
 * come back out of order. Each answer must be its own: its original hit, its re-query's hit and
 * the note naming its broader query, and no other call's number anywhere in it.
 * Reports lost and cross-wired answers, p50/p99/max latency per call and throughput.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentiles } from "../src/evaluation/percentiles.js";
import { spawnStdioMcp } from "../test/connectors/mcp/stdio-client.js";
import { huginnHit, huginnSearch } from "../test/support/huginn-server/huginn-json.js";
import { type HuginnServer, startHuginnServer } from "../test/support/huginn-server/huginn-server.js";

export const name = "mcp-load";
export const timeoutMs = 180_000;

const CALLS = 200;
const id = (n: number) => String(n).padStart(4, "0");
export const originalQuery = (n: number) => `load-${id(n)} widget setup`;
const broaderQuery = (n: number) => `load-${id(n)} widget`;

export interface LoadFigures {
  calls: number;
  answered: number;
  lost: number;
  crossWired: number;
  errors: number;
  corrected: number;
  /** Searches the Huginn server saw (original + re-query per call). */
  searches: number;
  /** Searches that carried anything but exactly the allow-list. */
  unscopedSearches: number;
  /** Re-queries sent without rerank=true. */
  requeriesWithoutRerank: number;
  wallMs: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** First few problems, for a failing run. */
  problems: string[];
}

/** Runs the load and checks every answer; throws only when the setup itself fails. */
export async function measureMcpLoad(options: { calls?: number } = {}): Promise<LoadFigures> {
  const calls = options.calls ?? CALLS;
  const server = await startLoadServer();
  const root = await mkdtemp(join(tmpdir(), "second-look-mcp-load-"));
  try {
    const botDir = join(root, "huginn-load");
    await writeLoadBot(botDir, server.url);
    const mcp = await spawnStdioMcp(botDir, { SECOND_LOOK_LOG_LEVEL: "warn" });
    try {
      // One call first: module loading and the first connection are not what is measured.
      await mcp.call("search_knowledge", { query: originalQuery(calls + 1) });
      server.requests.length = 0;

      const latencies: number[] = [];
      const problems: string[] = [];
      let lost = 0;
      let crossWired = 0;
      let errors = 0;
      let corrected = 0;
      const started = performance.now();
      const outcomes = await Promise.allSettled(
        Array.from({ length: calls }, async (_, n) => {
          const t0 = performance.now();
          const result = await mcp.call(
            "search_knowledge",
            { query: originalQuery(n) },
            { timeout: 120_000 },
          );
          latencies.push(performance.now() - t0);
          return result;
        }),
      );
      const wallMs = performance.now() - started;
      outcomes.forEach((outcome, n) => {
        if (outcome.status === "rejected") {
          lost++;
          if (problems.length < 5) problems.push(`call ${n}: ${String(outcome.reason)}`);
          return;
        }
        const { text, isError } = outcome.value;
        if (isError) {
          errors++;
          if (problems.length < 5) problems.push(`call ${n}: error result: ${text.slice(0, 200)}`);
          return;
        }
        const verdict = checkLoadReply(text, n);
        if (verdict.crossWired) {
          crossWired++;
          if (problems.length < 5) problems.push(`call ${n}: ${verdict.crossWired}`);
        }
        if (verdict.corrected) corrected++;
      });

      const searches = server.searches();
      const [p50, p99, max] = percentiles(latencies, [50, 99, 100]);
      return {
        calls,
        answered: calls - lost,
        lost,
        crossWired,
        errors,
        corrected,
        searches: searches.length,
        unscopedSearches: searches.filter((r) => r.collections.join(",") !== "wiki").length,
        requeriesWithoutRerank: searches.filter(
          (r) => / widget$/.test(r.query) && r.params.get("rerank") !== "true",
        ).length,
        wallMs: round(wallMs),
        callsPerSecond: round((calls / wallMs) * 1000),
        p50Ms: round(p50!),
        p99Ms: round(p99!),
        maxMs: round(max!),
        problems,
      };
    } finally {
      await mcp.close();
    }
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * Whether call n's answer is its own (its number and no other anywhere in it) and corrected (its
 * original hit, its re-query's hit and the note naming its broader query).
 */
export function checkLoadReply(text: string, n: number): { crossWired?: string; corrected: boolean } {
  const own = id(n);
  const numbers = new Set([...text.matchAll(/load[-/](\d{4})/g)].map((m) => m[1]));
  const ownHits =
    text.includes(`collection: \`wiki\` doc_id: \`load/${own}.md\``) &&
    text.includes(`collection: \`wiki\` doc_id: \`load/${own}-more.md\``);
  const crossWired =
    numbers.size !== 1 || !numbers.has(own) || !text.includes(`load-${own}`)
      ? `answer names ${[...numbers].join(", ")}`
      : undefined;
  const corrected =
    ownHits && text.includes(`re-searched "${broaderQuery(n)}" in collection wiki; 1 additional result`);
  return { ...(crossWired ? { crossWired } : {}), corrected };
}

/** The config of a Huginn bot on the load server, written into `botDir`. */
export async function writeLoadBot(botDir: string, serverUrl: string): Promise<void> {
  await mkdir(botDir, { recursive: true });
  await writeFile(
    join(botDir, "config.json"),
    JSON.stringify({
      description: "Load-test bot on a loopback Huginn.",
      knowledge: { backend: "huginn", huginn: { url: serverUrl, collections: ["wiki"] } },
      correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
    }),
  );
}

/**
 * Weak first answers with a broader hint; confident answers to the broader query. Each answer
 * waits `baseDelayMs` plus a few milliseconds that differ per query, so answers come back out
 * of order.
 */
export async function startLoadServer(options: { baseDelayMs?: number } = {}): Promise<HuginnServer> {
  const base = options.baseDelayMs ?? 0;
  return startHuginnServer({
    search: (r) => {
      const match = /^load-(\d{4}) widget( setup)?$/.exec(r.query);
      if (!match) return { status: 422, json: { detail: "unexpected query" } };
      const n = Number(match[1]);
      // Different small delays per query: answers return out of order.
      if (match[2]) {
        return {
          delayMs: base + ((n * 7) % 23),
          json: huginnSearch(
            [huginnHit({ id: `load/${match[1]}.md`, title: `Load ${match[1]}`, relevance: 0.42 })],
            { retryHints: { broaderQuery: broaderQuery(n), broaderQueryStrategy: "drop_last_word" } },
          ),
        };
      }
      return {
        delayMs: base + ((n * 5) % 17),
        json: huginnSearch([
          huginnHit({ id: `load/${match[1]}.md`, relevance: 0.8 }),
          huginnHit({ id: `load/${match[1]}-more.md`, title: `Load ${match[1]} more`, relevance: 0.9 }),
        ]),
      };
    },
  });
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const f = await measureMcpLoad();
  const ok = f.lost === 0 && f.crossWired === 0 && f.errors === 0 && f.corrected === f.calls;
  const markdown = [
    `${f.calls} concurrent \`search_knowledge\` calls over one stdio connection (official MCP client,`,
    "`second-look mcp` spawned from source), Huginn bot on a loopback server answering each search",
    "after 0–22 ms; every query weak, so every call also runs the corrective re-query.",
    "",
    "| calls | lost | cross-wired | errors | corrected | searches | p50 (ms) | p99 (ms) | max (ms) | wall (ms) | calls/s |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    `| ${f.calls} | ${f.lost} | ${f.crossWired} | ${f.errors} | ${f.corrected} | ${f.searches} | ${f.p50Ms} | ${f.p99Ms} | ${f.maxMs} | ${f.wallMs} | ${f.callsPerSecond} |`,
    "",
    `Every search scoped to the allow-list: ${f.unscopedSearches === 0 ? "yes" : `NO (${f.unscopedSearches})`}; ` +
      `every re-query rerank=true: ${f.requeriesWithoutRerank === 0 ? "yes" : `NO (${f.requeriesWithoutRerank})`}.`,
    ok ? "Every answer matched its own query." : `PROBLEMS: ${f.problems.join("; ")}`,
  ].join("\n");
  if (!ok) throw new Error(markdown);
  return { title: "MCP server under concurrent load", figures: { ...f }, markdown };
}
