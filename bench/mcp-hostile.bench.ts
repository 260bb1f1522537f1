/**
 * One caller cannot stall a shared `second-look mcp --http` server: while the worst requests that
 * fit in the 1 MiB body limit are being refused, `/health` (and so every other client) must still
 * be answered within 100 ms.
 *
 * The CLI spawned from source (`mcp <bot> --http 127.0.0.1:0`, the handbook bot, its index built
 * beforehand, `--rate` high enough that no request is refused for its rate), then, for each hostile
 * shape, REPEATS of the request sent one after the other while a second client asks `/health`
 * every POLL_MS (from a process of its own) and times each answer; the server's CPU time per request (from /proc) is what a
 * request costs whatever else the machine runs. First the same polling with nothing else sent:
 * the machine's own latency, since it is shared. The shapes:
 * - 1 MiB of unknown argument names (~87,000: issue 32's D2, refused on the body's structure);
 * - arguments nested ~520,000 deep (refused on the body's depth);
 * - 1,000 unknown names of 1,030 characters (refused on the names' length);
 * - 1,000 unknown names of 250 characters valued with 780-character strings (within every bound
 *   of the body's structure: parsed, then refused by the argument count before any schema);
 * - a JSON-RPC batch of 10 calls (the most one may hold) with 60 unknown names each and long
 *   values (each call through the strict schema and its bounded message);
 * - a batch of 100 calls, each with one long value (parsed, refused for its size);
 * - 1 MiB sent without a token (answered 401 before the body is read; the connection closes).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { percentiles } from "../src/evaluation/percentiles.js";
import { startCli } from "../test/support/cli-process.js";
import { makeHandbookBot } from "../test/support/handbook-bot.js";
import {
  deeplyNestedCall,
  longUnknownKeysCall,
  MIB,
  manyUnknownKeysCall,
  unknownKeysBatch,
} from "../test/support/hostile-mcp-requests.js";

export const name = "mcp-hostile";
export const timeoutMs = 300_000;

const TOKEN = "bench-hostile-token-0123456789";
const REPEATS = 30;
const POLL_MS = 10;
const BASELINE_MS = 3_000;
const TARGET_MS = 100;

interface Shape {
  label: string;
  body: string;
  token: boolean;
}

function shapes(): Shape[] {
  const d2 = manyUnknownKeysCall();
  return [
    {
      label: `1 MiB, ${d2.keys.toLocaleString("en-US")} unknown argument names (D2)`,
      body: d2.body,
      token: true,
    },
    { label: "1 MiB, arguments nested 520,000 deep", body: deeplyNestedCall(520_000), token: true },
    {
      label: "1 MiB, 1,000 unknown names of 1,030 characters",
      body: longUnknownKeysCall(1_000, 1_030),
      token: true,
    },
    {
      label: "1 MiB, 1,000 unknown names of 250 characters with long values",
      body: longUnknownKeysCall(1_000, 250, 780),
      token: true,
    },
    {
      label: "1 MiB, a batch of 10 calls with 60 unknown names each",
      body: unknownKeysBatch(10, 60, 250, 1_450),
      token: true,
    },
    {
      label: "1 MiB, a batch of 100 calls with one long value each",
      body: unknownKeysBatch(100, 1, 10, 10_300),
      token: true,
    },
    { label: "1 MiB without a token (D10)", body: manyUnknownKeysCall().body, token: false },
  ];
}

const round = (v: number) => Math.round(v * 10) / 10;
const load = () => loadavg().map((v) => Math.round(v * 100) / 100);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The /health poller, in a process of its own so the bench's own work (building and sending the
 * 1 MiB bodies) never delays its timings: asks every POLL_MS until a line arrives on stdin, then
 * prints the times (ms) and failures as one JSON line.
 */
const POLLER = `
const [origin, pollMs] = process.argv.slice(1);
const times = [];
let failures = 0;
let running = true;
process.stdin.once("data", () => { running = false; });
while (running) {
  const started = performance.now();
  try {
    const response = await fetch(origin + "/health");
    await response.arrayBuffer();
    if (response.status === 200) times.push(performance.now() - started);
    else failures++;
  } catch {
    failures++;
  }
  await new Promise((resolve) => setTimeout(resolve, Number(pollMs)));
}
process.stdout.write(JSON.stringify({ times, failures }) + "\\n");
process.exit(0);
`;

/** Starts the poller; `stop` ends it and gives what it measured. */
async function pollHealth(origin: string) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", POLLER, origin, String(POLL_MS)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Polling has begun once the first answers are in: wait for the poller's start.
  await sleep(500);
  return {
    stop: async (): Promise<{ times: number[]; failures: number }> => {
      child.stdin.write("stop\n");
      await exited;
      return JSON.parse(out) as { times: number[]; failures: number };
    },
  };
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux, 10 ms ticks); NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function latency(times: number[]) {
  const [p50, p99, max] = percentiles(times, [50, 99, 100]);
  return { answers: times.length, p50Ms: round(p50!), p99Ms: round(p99!), maxMs: round(max!) };
}

async function measureShape(url: string, origin: string, shape: Shape, pid: number | undefined) {
  const poll = await pollHealth(origin);
  const cpuBefore = processCpuMs(pid);
  const refusals: number[] = [];
  const statuses = new Set<number>();
  let replyBytes = 0;
  let reply = "";
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(shape.token ? { authorization: `Bearer ${TOKEN}` } : {}),
      },
      body: shape.body,
    });
    const text = await response.text();
    refusals.push(performance.now() - started);
    statuses.add(response.status);
    replyBytes = Math.max(replyBytes, Buffer.byteLength(text));
    reply = text;
    await sleep(POLL_MS * 3);
  }
  const { times, failures } = await poll.stop();
  const cpuMs = processCpuMs(pid) - cpuBefore;
  const [p50, max] = percentiles(refusals, [50, 100]);
  return {
    shape: shape.label,
    bodyBytes: Buffer.byteLength(shape.body),
    statuses: [...statuses],
    replyBytes,
    reply: reply.slice(0, 240),
    refusalP50Ms: round(p50!),
    refusalMaxMs: round(max!),
    serverCpuMsPerRequest: round(cpuMs / REPEATS),
    health: { ...latency(times), failures },
  };
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const root = await mkdtemp(join(tmpdir(), "second-look-mcp-hostile-"));
  const botDir = join(root, "handbook");
  await makeHandbookBot(botDir, {});
  const all = shapes();
  for (const shape of all) {
    if (Buffer.byteLength(shape.body) > MIB) throw new Error(`${shape.label}: over 1 MiB`);
  }
  const cli = startCli(["mcp", botDir, "--http", "127.0.0.1:0", "--rate", "1000000"], {
    SECOND_LOOK_MCP_TOKENS: TOKEN,
    SECOND_LOOK_LOG_LEVEL: "error",
  });
  try {
    const deadline = Date.now() + 60_000;
    while (!/serving \S+ at (\S+)/.test(cli.stdout())) {
      if (Date.now() > deadline) throw new Error(`the server did not start: ${cli.stdout()}`);
      await sleep(100);
    }
    const url = /serving \S+ at (\S+)/.exec(cli.stdout())![1]!;
    const origin = new URL(url).origin;
    // Warm-up: the first requests load the MCP server's modules.
    for (const shape of all) await fetch(url, { method: "POST", body: shape.body }).catch(() => undefined);
    const pid = cli.child.pid;
    await measureShape(url, origin, all[0]!, pid);
    const loadBefore = load();
    const idle = await pollHealth(origin);
    await sleep(BASELINE_MS);
    const baseline = await idle.stop();
    const cases = [];
    for (const shape of all) cases.push(await measureShape(url, origin, shape, pid));
    const loadAfter = load();
    const worst = Math.max(...cases.map((c) => c.health.maxMs));
    const figures = {
      repeats: REPEATS,
      pollMs: POLL_MS,
      targetMs: TARGET_MS,
      baseline: { ...latency(baseline.times), failures: baseline.failures },
      cases,
      worstHealthMs: worst,
      held: worst <= TARGET_MS && cases.every((c) => c.health.failures === 0),
      loadBefore,
      loadAfter,
    };
    const markdown = [
      "`second-look mcp <bot> --http` (spawned from source, the handbook bot): each request below sent",
      `${REPEATS} times, one after the other, while a second client asks \`/health\` every ${POLL_MS} ms.`,
      "",
      "| request | status | reply (bytes) | refused in, p50 / max (ms) | server CPU a request (ms) | /health answers | /health p50 / p99 / max (ms) |",
      "|---|---|---|---|---|---|---|",
      `| nothing (the machine's own latency) | | | | | ${figures.baseline.answers} | ${figures.baseline.p50Ms} / ${figures.baseline.p99Ms} / ${figures.baseline.maxMs} |`,
      ...cases.map(
        (c) =>
          `| ${c.shape} | ${c.statuses.join(", ")} | ${c.replyBytes} | ${c.refusalP50Ms} / ${c.refusalMaxMs} | ${c.serverCpuMsPerRequest} | ${c.health.answers} | ${c.health.p50Ms} / ${c.health.p99Ms} / ${c.health.maxMs} |`,
      ),
      "",
      "Server CPU a request: the server process's CPU time (/proc, 10 ms ticks) over the shape's requests,",
      "its /health answers included, divided by the requests: what one request can hold the event loop for",
      "when the machine is not shared.",
      "",
      `Slowest /health answer while a hostile request was refused: **${worst} ms** (target ≤ ${TARGET_MS} ms): ` +
        `${figures.held ? "held" : "NOT held"}. Load average (1, 5, 15 min) before ${loadBefore.join(", ")}, ` +
        `after ${loadAfter.join(", ")}, on 2 cores shared with other jobs.`,
    ].join("\n");
    return { title: "MCP over HTTP: /health while the worst 1 MiB requests are refused", figures, markdown };
  } finally {
    cli.child.kill("SIGTERM");
    await cli.done;
    await rm(root, { recursive: true, force: true });
  }
}
