/**
 * A dead OTLP collector changes no answer and adds no wait (issue 22). The same questions go to
 * `second-look mcp` (search_knowledge over stdio, the handbook bot, corrective pass on) and to
 * `second-look serve` (a Slack question through the real Copilot runtime, the fake model server
 * calling search_knowledge, the fake Slack Web API). Three processes of each run side by side:
 *
 * - **none**: no OTEL_* variable (nothing registered: the baseline);
 * - **refused**: OTEL_EXPORTER_OTLP_ENDPOINT at a port nothing listens on;
 * - **hanging**: at a server that accepts every export and never answers.
 *
 * With a collector, batches are exported every 100 ms (OTEL_BSP_SCHEDULE_DELAY), so exports
 * fail while the questions run. Each question goes to the three processes one after the other
 * (in a rotating order), ROUNDS times, so a busy machine slows all three alike; a question's time
 * is the (nearest-rank) median of its rounds, and "added" is that median minus the baseline's
 * for the same question. Reports, per process and collector: answers that differ from the
 * baseline's, and the added milliseconds (median and max over the questions). The bound: no
 * answer changed, max ≤ 50 ms.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { percentiles } from "../src/evaluation/percentiles.js";
import { setLogger } from "../src/telemetry/logger.js";
import { silent } from "../test/connectors/mcp/mcp-harness.js";
import { spawnStdioMcp } from "../test/connectors/mcp/stdio-client.js";
import { directiveScript } from "../test/e2e/connector/fixtures.js";
import { BOT_USER_ID, startFakeSlackApi, TEAM_ID } from "../test/hosts/support/fake-slack-api.js";
import { freePort } from "../test/support/free-port.js";
import { makeHandbookBot } from "../test/support/handbook-bot.js";
import { startModelServer } from "../test/support/model-server/model-server.js";
import { type OtlpReceiver, startOtlpReceiver } from "../test/support/otlp-receiver.js";
import {
  mentionEventBody,
  postSlackEvent,
  type ServeProcess,
  startServe,
} from "../test/support/serve-process.js";

export const name = "otlp-dead-collector";
export const timeoutMs = 600_000;

const _REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Handbook questions, weak and strong, so most calls also run the corrective pass. */
const QUESTIONS = [
  "company car lease policy",
  "stock options vesting schedule",
  "how many vacation days do I get",
  "can I carry over unused PTO",
  "team offsite training budget",
  "expense report deadline",
  "parental leave keeping in touch days",
  "password manager policy",
];
const MCP_ROUNDS = 5;
const SERVE_ROUNDS = 5;
const BOUND_MS = 50;
const SECRET = "bench-signing-secret";

type Collector = "none" | "refused" | "hanging";
const COLLECTORS: readonly Collector[] = ["none", "refused", "hanging"];

interface Row {
  process: "mcp" | "serve";
  collector: Collector;
  questions: number;
  rounds: number;
  changedAnswers: number;
  /** The baseline's answer time (median over the questions of their medians). */
  baselineMedianMs: number;
  addedMedianMs: number;
  addedMaxMs: number;
  exportRequests: number;
  /** Per question: its rounds' times (ms), in round order. */
  roundsMs: number[][];
}

/** One running process that answers a question. */
interface Target {
  ask(question: string): Promise<{ ms: number; answer: string }>;
  close(): Promise<void>;
}

export async function run() {
  setLogger(silent);
  const root = await mkdtemp(join(tmpdir(), "second-look-otlp-bench-"));
  const hanging = await startOtlpReceiver({ mode: "hang" });
  const model = await startModelServer({ script: directiveScript, maxRequests: 10_000 });
  const rows: Row[] = [];
  const baselines = new Map<string, number[][]>();
  try {
    const botDir = join(root, "bots", "handbook");
    await makeHandbookBot(botDir, {
      model: "bench-model",
      provider: { type: "openai", baseUrl: model.openAiBaseUrl, apiKeyEnv: "BENCH_MODEL_KEY" },
      correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
    });
    const kinds = [
      { kind: "mcp", rounds: MCP_ROUNDS, open: (env: Record<string, string>) => openMcp(botDir, env) },
      { kind: "serve", rounds: SERVE_ROUNDS, open: (env: Record<string, string>) => openServe(root, env) },
    ] as const;
    for (const { kind, rounds, open } of kinds) {
      process.stderr.write(`otlp-dead-collector: ${kind} …\n`);
      const requestsBefore = hanging.requests();
      const targets = new Map<Collector, Target>();
      try {
        for (const collector of COLLECTORS)
          targets.set(collector, await open(await collectorEnv(collector, hanging)));
        const times = new Map(COLLECTORS.map((c) => [c, QUESTIONS.map((): number[] => [])]));
        const answers = new Map(COLLECTORS.map((c) => [c, [] as string[]]));
        for (const collector of COLLECTORS) await targets.get(collector)!.ask(QUESTIONS[0]!);
        for (let round = 0; round < rounds; round++) {
          for (const [i, question] of QUESTIONS.entries()) {
            const order = COLLECTORS.map((_, k) => COLLECTORS[(k + i + round) % COLLECTORS.length]!);
            for (const collector of order) {
              const { ms, answer } = await targets.get(collector)!.ask(question);
              times.get(collector)![i]!.push(ms);
              answers.get(collector)![i] = answer;
            }
          }
        }
        const baseline = times.get("none")!.map(median);
        baselines.set(
          kind,
          times.get("none")!.map((t) => t.map(round1)),
        );
        for (const collector of COLLECTORS.filter((c) => c !== "none")) {
          const added = times.get(collector)!.map((t, i) => median(t) - baseline[i]!);
          rows.push({
            process: kind,
            collector,
            questions: QUESTIONS.length,
            rounds,
            changedAnswers: answers.get(collector)!.filter((a, i) => a !== answers.get("none")![i]).length,
            baselineMedianMs: round1(median(baseline)),
            addedMedianMs: round1(median(added)),
            addedMaxMs: round1(Math.max(...added)),
            exportRequests: collector === "hanging" ? hanging.requests() - requestsBefore : 0,
            roundsMs: times.get(collector)!.map((t) => t.map(round1)),
          });
        }
      } finally {
        for (const target of targets.values()) await target.close();
      }
    }
  } finally {
    await model.close();
    await hanging.close();
    await rm(root, { recursive: true, force: true });
  }
  const worst = Math.max(...rows.map((r) => r.addedMaxMs));
  const changed = rows.reduce((n, r) => n + r.changedAnswers, 0);
  const figures = {
    boundMs: BOUND_MS,
    worstAddedMs: worst,
    changedAnswers: changed,
    withinBound: worst <= BOUND_MS && changed === 0,
    rows,
    baselineRoundsMs: Object.fromEntries(baselines),
  };
  const markdown = [
    "| process | collector | questions × rounds | answers changed | answer ms without collector (median) | added ms (median) | added ms (max) | exports sent to the hanging collector |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.process} | ${r.collector} | ${r.questions} × ${r.rounds} | ${r.changedAnswers} | ${r.baselineMedianMs} | ${r.addedMedianMs} | ${r.addedMaxMs} | ${r.collector === "hanging" ? r.exportRequests : "—"} |`,
    ),
    "",
    `Added time per question = median of its rounds minus the baseline's (no collector), the three processes asked in turn. Bound: ≤ ${BOUND_MS} ms and no answer changed — ${figures.withinBound ? "met" : "NOT met"} (worst ${worst} ms, ${changed} changed).`,
  ].join("\n");
  return { title: "A dead OTLP collector: answers and latency of mcp and serve", figures, markdown };
}

async function collectorEnv(collector: Collector, hanging: OtlpReceiver): Promise<Record<string, string>> {
  if (collector === "none") return {};
  const endpoint = collector === "hanging" ? hanging.url : `http://127.0.0.1:${await freePort()}`;
  return { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "100" };
}

async function openMcp(botDir: string, env: Record<string, string>): Promise<Target> {
  const mcp = await spawnStdioMcp(botDir, { SECOND_LOOK_LOG_LEVEL: "error", ...env });
  return {
    async ask(question) {
      const started = performance.now();
      const result = await mcp.call("search_knowledge", { query: question });
      return { ms: performance.now() - started, answer: result.text };
    },
    close: () => mcp.close(),
  };
}

async function openServe(root: string, env: Record<string, string>): Promise<Target> {
  const slackApi = await startFakeSlackApi();
  const slackPort = await freePort();
  let serve: ServeProcess;
  try {
    // Log level as serve's default: startServe waits for its "serving on" line.
    serve = await startServe(root, {
      BENCH_MODEL_KEY: "sk-bench",
      SLACK_BOT_TOKEN_HANDBOOK: "xoxb-bench",
      SLACK_SIGNING_SECRET_HANDBOOK: SECRET,
      SLACK_PORT_HANDBOOK: String(slackPort),
      SLACK_API_URL: slackApi.url,
      ...env,
    });
  } catch (error) {
    await slackApi.close();
    throw error;
  }
  let event = 0;
  return {
    async ask(question) {
      event += 1;
      const before = slackApi.of("chat.update").length;
      const body = mentionEventBody(`search: ${question}`, {
        team: TEAM_ID,
        botUser: BOT_USER_ID,
        eventId: `Ev${event}`,
        ts: `1700000000.${String(event).padStart(6, "0")}`,
      });
      const started = performance.now();
      if ((await postSlackEvent(slackPort, SECRET, body)) !== 200) throw new Error("Slack event refused");
      await replied(() => slackApi.of("chat.update").length > before, serve);
      return { ms: performance.now() - started, answer: slackApi.of("chat.update")[before]!.args.text ?? "" };
    },
    async close() {
      await serve.stop();
      await slackApi.close();
    },
  };
}

/**
 * Resolves as soon as `check` holds, looking every millisecond (serve.waitFor looks every 50 ms,
 * which would round every answer time up to its next 50 ms); bounded at a minute.
 */
async function replied(check: () => boolean, serve: ServeProcess): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > 60_000) throw new Error(`no reply within a minute:\n${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** The nearest-rank median: a time that was measured. */
function median(values: readonly number[]): number {
  return percentiles(values, [50])[0]!;
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}
