// Telemetry never changes a command's result: `ask --trace` with an OTLP collector that is down
// or never answers still prints its result and exits 0, within the export bound, and says in one
// warning line that the export failed.
import { createServer as createHttpServer, type Server } from "node:http";
import { dirname, join, resolve } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { OTLP_EXPORT_TIMEOUT_MS } from "../../src/telemetry/capture-spans.js";
import { createLogger, setLogger } from "../../src/telemetry/logger.js";
import { freePort } from "../support/free-port.js";
import { runCli } from "../support/run-cli.js";

const HANDBOOK = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "bots/handbook");
const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
let server: Server | undefined;

afterEach(async () => {
  if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
  setLogger(createLogger({ level: "silent" }));
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
    server = undefined;
  }
});

function warnings(): () => string[] {
  const messages: string[] = [];
  const stream = new Writable({
    write(chunk, _e, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) {
        const entry = JSON.parse(l) as { level: number; msg: string };
        if (entry.level >= 40) messages.push(entry.msg);
      }
      done();
    },
  });
  setLogger(createLogger({ level: "warn", destination: stream }));
  return () => messages;
}

async function askWithTrace() {
  const started = Date.now();
  const run = await runCli(["ask", HANDBOOK, "how many vacation days do I get", "--trace"]);
  return { ...run, ms: Date.now() - started };
}

/**
 * The same command with no collector at all, timed just before: the bound is checked on the
 * time the broken collector adds, so a busy machine slowing both runs does not fail it.
 */
async function baselineMs(): Promise<number> {
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  try {
    return (await askWithTrace()).ms;
  } finally {
    if (endpoint !== undefined) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
  }
}

/** What the export may add: its own bound, twice (flush and shutdown), and slack for a busy machine. */
const EXPORT_ALLOWANCE_MS = OTLP_EXPORT_TIMEOUT_MS * 2 + 5_000;

describe("ask --trace with a broken OTLP collector", () => {
  it("unreachable: exit 0, the result printed, one warning naming the endpoint", async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
    const baseline = await baselineMs();
    const logged = warnings();
    const run = await askWithTrace();
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("doc_id:");
    expect(run.stderr).toContain("search_knowledge");
    const otlp = logged().filter((m) => m.includes("OTLP"));
    expect(otlp).toHaveLength(1);
    expect(otlp[0]).toContain(endpoint);
    expect(run.ms - baseline).toBeLessThan(EXPORT_ALLOWANCE_MS);
  });

  it("a collector that never answers: still exit 0 within the export bound", async () => {
    server = createHttpServer(() => {
      // accepts the request and never replies
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const baseline = await baselineMs();
    const logged = warnings();
    const run = await askWithTrace();
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("doc_id:");
    expect(logged().filter((m) => m.includes("OTLP"))).toHaveLength(1);
    expect(run.ms - baseline).toBeLessThan(EXPORT_ALLOWANCE_MS);
  });
});
