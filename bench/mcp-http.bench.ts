/**
 * `second-look mcp --http` under a team's load, and replies over stdio as each call finishes.
 *
 * HTTP: the CLI spawned from source (`mcp <bot> --http 127.0.0.1:0`, 20 tokens), a Huginn bot
 * on a loopback Huginn-compatible server that answers each search after SEARCH_DELAY_MS (plus
 * 0–22 ms that differ per query, so answers return out of order) — a remote search service's
 * latency, so the server's concurrency is what is measured. Every first answer is weak, so
 * every call also runs the corrective re-query. First one client's calls one at a time (the
 * single-call latency), then 20 official SDK clients over Streamable HTTP, each with its own
 * token, sending 10 calls each at once: 200 concurrent calls. Each reply must be its own query's,
 * corrected (checkLoadReply). Target: p50 of the 200 within 2× the single call's p50.
 *
 * stdio: the same 200 calls at once over one stdio connection, on the load server without the
 * added delay (as bench/mcp-load.bench.ts runs it), timing when each reply arrives: the first
 * reply long before the last shows replies leave as each call finishes.
 *
 * The machine is shared: the load average before and after each part is recorded with it.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { percentiles } from "../src/evaluation/percentiles.js";
import { spawnStdioMcp } from "../test/connectors/mcp/stdio-client.js";
import { startCli } from "../test/support/cli-process.js";
import { connectHttpMcp, type HttpMcp } from "../test/support/http-mcp-client.js";
import { checkLoadReply, originalQuery, startLoadServer, writeLoadBot } from "./mcp-load.bench.js";

export const name = "mcp-http";
export const timeoutMs = 300_000;

const CLIENTS = 20;
const CALLS_PER_CLIENT = 10;
const SINGLE_CALLS = 20;
const SEARCH_DELAY_MS = 100;
const CALL_TIMEOUT_MS = 120_000;

interface Batch {
  calls: number;
  lost: number;
  crossWired: number;
  errors: number;
  corrected: number;
  /** Milliseconds from the batch's start to each reply, sorted. */
  arrivals: number[];
  wallMs: number;
  problems: string[];
}

type Call = (n: number) => Promise<{ text: string; isError: boolean }>;

/** Sends calls `from`…`from+count-1` at once through `callers` (round robin) and checks each reply. */
async function batch(callers: readonly Call[], from: number, count: number): Promise<Batch> {
  const result: Batch = {
    calls: count,
    lost: 0,
    crossWired: 0,
    errors: 0,
    corrected: 0,
    arrivals: [],
    wallMs: 0,
    problems: [],
  };
  const note = (problem: string) => {
    if (result.problems.length < 5) result.problems.push(problem);
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const n = from + i;
      try {
        const reply = await callers[i % callers.length]!(n);
        const now = performance.now();
        result.arrivals.push(now - started);
        if (reply.isError) {
          result.errors++;
          note(`call ${n}: error: ${reply.text.slice(0, 160)}`);
          return;
        }
        const verdict = checkLoadReply(reply.text, n);
        if (verdict.crossWired) {
          result.crossWired++;
          note(`call ${n}: ${verdict.crossWired}`);
        }
        if (verdict.corrected) result.corrected++;
      } catch (error) {
        result.lost++;
        note(`call ${n}: ${String(error)}`);
      }
    }),
  );
  result.wallMs = performance.now() - started;
  result.arrivals.sort((a, b) => a - b);
  return result;
}

/** The p50 of `count` calls made one after another. */
async function singleCallMs(call: Call, from: number, count: number): Promise<{ p50: number; min: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const reply = await call(from + i);
    if (reply.isError || checkLoadReply(reply.text, from + i).crossWired) {
      throw new Error(`single call ${from + i} failed: ${reply.text.slice(0, 200)}`);
    }
    times.push(performance.now() - t0);
  }
  const [p50, min] = percentiles(times, [50, 0]);
  return { p50: p50!, min: min! };
}

const round = (v: number) => Math.round(v * 10) / 10;

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of proc(5), counted after the command name; in clock
    // ticks of 1/100 s (USER_HZ on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}
const load = () => loadavg().map((v) => Math.round(v * 100) / 100);

function summary(b: Batch) {
  const [min, p50, p99, max] = percentiles(b.arrivals, [0, 50, 99, 100]);
  return {
    calls: b.calls,
    answered: b.calls - b.lost,
    lost: b.lost,
    crossWired: b.crossWired,
    errors: b.errors,
    corrected: b.corrected,
    firstReplyMs: round(min ?? Number.NaN),
    p50Ms: round(p50 ?? Number.NaN),
    p99Ms: round(p99 ?? Number.NaN),
    lastReplyMs: round(max ?? Number.NaN),
    wallMs: round(b.wallMs),
    problems: b.problems,
  };
}

async function measureHttp(root: string) {
  const server = await startLoadServer({ baseDelayMs: SEARCH_DELAY_MS });
  const tokens = Array.from(
    { length: CLIENTS },
    (_, i) => `bench-token-${String(i).padStart(2, "0")}-${"x".repeat(16)}`,
  );
  const botDir = join(root, "huginn-http");
  await writeLoadBot(botDir, server.url);
  const cli = startCli(["mcp", botDir, "--http", "127.0.0.1:0"], {
    SECOND_LOOK_MCP_TOKENS: tokens.join(","),
    SECOND_LOOK_LOG_LEVEL: "warn",
  });
  const clients: HttpMcp[] = [];
  try {
    const deadline = Date.now() + 60_000;
    while (!/serving \S+ at (\S+)/.test(cli.stdout())) {
      if (Date.now() > deadline) throw new Error(`the server did not start: ${cli.stdout()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const url = /serving \S+ at (\S+)/.exec(cli.stdout())![1]!;
    for (const token of tokens) clients.push(await connectHttpMcp(url, token));
    const callers: Call[] = clients.map(
      (client) => (n) =>
        client.call("search_knowledge", { query: originalQuery(n) }, { timeout: CALL_TIMEOUT_MS }),
    );
    // Warm-up: module loading and the first connections are not what is measured.
    await batch(callers, 5_000, CLIENTS);
    const loadBefore = load();
    const single = await singleCallMs(callers[0]!, 6_000, SINGLE_CALLS);
    const cpuBefore = processCpuMs(cli.child.pid);
    const benchCpuBefore = process.cpuUsage();
    const concurrent = await batch(callers, 0, CLIENTS * CALLS_PER_CLIENT);
    const serverCpuMs = processCpuMs(cli.child.pid) - cpuBefore;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const loadAfter = load();
    const searches = server.searches().filter((r) => /^load-0[01]\d\d /.test(r.query));
    return {
      single,
      concurrent: summary(concurrent),
      serverCpuMs: round(serverCpuMs),
      clientsCpuMs: round((benchCpu.user + benchCpu.system) / 1000),
      loadBefore,
      loadAfter,
      searches: searches.length,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    cli.child.kill("SIGTERM");
    await cli.done;
    await server.close();
  }
}

async function measureStdio(root: string) {
  const server = await startLoadServer();
  const botDir = join(root, "huginn-stdio");
  await writeLoadBot(botDir, server.url);
  const mcp = await spawnStdioMcp(botDir, { SECOND_LOOK_LOG_LEVEL: "warn" });
  try {
    const call: Call = (n) =>
      mcp.call("search_knowledge", { query: originalQuery(n) }, { timeout: CALL_TIMEOUT_MS });
    await batch([call], 5_000, 20);
    const loadBefore = load();
    const single = await singleCallMs(call, 6_000, SINGLE_CALLS);
    const concurrent = await batch([call], 0, CLIENTS * CALLS_PER_CLIENT);
    return { single, concurrent: summary(concurrent), loadBefore, loadAfter: load() };
  } finally {
    await mcp.close();
    await server.close();
  }
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const root = await mkdtemp(join(tmpdir(), "second-look-mcp-http-"));
  try {
    const http = await measureHttp(root);
    const stdio = await measureStdio(root);
    const ratio = round(http.concurrent.p50Ms / http.single.p50);
    const clean = (c: ReturnType<typeof summary>) =>
      c.lost === 0 && c.crossWired === 0 && c.errors === 0 && c.corrected === c.calls;
    const figures = {
      http: {
        ...http,
        single: { p50Ms: round(http.single.p50), minMs: round(http.single.min) },
        p50Ratio: ratio,
      },
      stdio: { ...stdio, single: { p50Ms: round(stdio.single.p50), minMs: round(stdio.single.min) } },
      searchDelayMs: SEARCH_DELAY_MS,
      clients: CLIENTS,
      callsPerClient: CALLS_PER_CLIENT,
    };
    const h = http.concurrent;
    const s = stdio.concurrent;
    const markdown = [
      `**HTTP** — \`second-look mcp <bot> --http\` (spawned from source), ${CLIENTS} official SDK clients over`,
      `Streamable HTTP, one token each, ${CALLS_PER_CLIENT} calls each at once (${h.calls} concurrent); Huginn bot on a`,
      `loopback server answering each search after ${SEARCH_DELAY_MS}–${SEARCH_DELAY_MS + 22} ms; every query weak, so every call re-queries.`,
      "",
      "| | calls | lost | cross-wired | errors | corrected | first (ms) | p50 (ms) | p99 (ms) | last (ms) |",
      "|---|---|---|---|---|---|---|---|---|---|",
      `| one at a time | ${SINGLE_CALLS} | 0 | 0 | 0 | ${SINGLE_CALLS} | ${round(http.single.min)} | ${round(http.single.p50)} | | |`,
      `| 200 at once | ${h.calls} | ${h.lost} | ${h.crossWired} | ${h.errors} | ${h.corrected} | ${h.firstReplyMs} | ${h.p50Ms} | ${h.p99Ms} | ${h.lastReplyMs} |`,
      "",
      `The server process used ${http.serverCpuMs} ms of CPU for the ${h.calls} calls ` +
        `(${round(http.serverCpuMs / h.calls)} ms a call); the bench's process (the 20 clients and the search server) ` +
        `${http.clientsCpuMs} ms, on 2 cores shared with other jobs.`,
      "",
      `p50 of 200 concurrent calls / p50 of a single call: **${ratio}×** (target ≤ 2×). ` +
        `Load average (1, 5, 15 min) before ${http.loadBefore.join(", ")}, after ${http.loadAfter.join(", ")} (a machine shared with other jobs).`,
      "",
      `**stdio** — the same ${s.calls} calls at once over one stdio connection (load server without the added delay,`,
      "as `mcp-load` runs it): when each reply arrived, from the batch's start.",
      "",
      "| calls | lost | cross-wired | errors | corrected | single call p50 (ms) | first reply (ms) | p50 (ms) | last reply = total (ms) |",
      "|---|---|---|---|---|---|---|---|---|",
      `| ${s.calls} | ${s.lost} | ${s.crossWired} | ${s.errors} | ${s.corrected} | ${round(stdio.single.p50)} | ${s.firstReplyMs} | ${s.p50Ms} | ${s.lastReplyMs} |`,
      "",
      `Load average before ${stdio.loadBefore.join(", ")}, after ${stdio.loadAfter.join(", ")}.`,
      clean(h) && clean(s)
        ? "Every reply matched its own query and was corrected."
        : `PROBLEMS: ${[...h.problems, ...s.problems].join("; ")}`,
    ].join("\n");
    if (!clean(h) || !clean(s)) throw new Error(markdown);
    return { title: "MCP over Streamable HTTP and stdio under 200 concurrent calls", figures, markdown };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
