/**
 * Runs the benchmarks: every bench/*.bench.ts, or those named on the command line
 * (`npm run bench -- quality speed`). Each module exports `name` (its file's stem), `run()`
 * and optionally `timeoutMs`; it runs in a child process of its own, so a module that hangs in
 * synchronous code can still be stopped at its timeout, one that crashes does not take the
 * others down, and each one's memory figures start from a fresh heap.
 *
 * Writes bench/results/<name>.json and .md per module and a combined bench/results/README.md;
 * prints each module's markdown to stdout (progress goes to stderr). Exits 1 if any module
 * failed or timed out, 2 on an unknown module name. `npm run bench -- --index` runs nothing and
 * writes bench/results/README.md anew from the committed results (after merging two changes
 * that each re-ran a suite).
 */
import { type ChildProcess, fork } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, platform, release } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

interface BenchResult {
  title: string;
  figures: Record<string, unknown>;
  markdown: string;
}

interface BenchModule {
  name: string;
  run(): Promise<BenchResult>;
  timeoutMs?: number;
}

interface Environment {
  node: string;
  cpu: string;
  cores: number;
  os: string;
}

/** What bench/results/<name>.json holds: a result, or why there is none. */
interface RecordedRun {
  name: string;
  date: string;
  environment: Environment;
  durationMs: number;
  title?: string;
  figures?: Record<string, unknown>;
  markdown?: string;
  failure?: string;
}

type ChildMessage =
  | { type: "started"; timeoutMs?: number }
  | { type: "result"; result: BenchResult }
  | { type: "error"; message: string };

const SUFFIX = ".bench.ts";
/** For a module that does not say how long it needs. BENCH_TIMEOUT_MS overrides every module's. */
const DEFAULT_TIMEOUT_MS = 180_000;
/** Loading a module (tsx transpiles it) counts against this until the module states its own timeout. */
const LOAD_TIMEOUT_MS = 60_000;
const EXIT_GRACE_MS = 10_000;

const benchDir = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(benchDir, "results");
const repoDir = dirname(benchDir);

if (process.argv[2] === "--child") {
  await runChild(process.argv[3]!);
} else {
  process.exitCode = await runAll(process.argv.slice(2));
}

/** In the child: load one module, run it, send the result to the parent. */
async function runChild(file: string): Promise<void> {
  const send = (message: ChildMessage) =>
    new Promise<void>((done) => {
      process.send!(message, () => done());
    });
  try {
    const mod = (await import(pathToFileURL(join(benchDir, file)).href)) as Partial<BenchModule>;
    const stem = file.slice(0, -SUFFIX.length);
    if (mod.name !== stem || typeof mod.run !== "function") {
      throw new Error(`${file} must export name = "${stem}" and run()`);
    }
    await send({
      type: "started",
      ...(typeof mod.timeoutMs === "number" ? { timeoutMs: mod.timeoutMs } : {}),
    });
    const result = await mod.run();
    await send({ type: "result", result });
  } catch (error) {
    await send({
      type: "error",
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    process.exitCode = 1;
  }
  process.disconnect();
}

async function runAll(requested: string[]): Promise<number> {
  if (requested.length === 1 && requested[0] === "--index") {
    const modules = readdirSync(benchDir)
      .filter((f) => f.endsWith(SUFFIX))
      .map((f) => f.slice(0, -SUFFIX.length))
      .sort();
    // The index says when the newest of the results it gathers was measured, not when it was written.
    const dates = modules
      .map((name) => join(resultsDir, `${name}.json`))
      .filter((file) => existsSync(file))
      .map((file) => (JSON.parse(readFileSync(file, "utf8")) as RecordedRun).date)
      .sort();
    const newest = dates.at(-1) ?? new Date().toISOString();
    writeFileSync(join(resultsDir, "README.md"), combinedReadme(modules, newest, describeEnvironment()));
    return 0;
  }
  const available = readdirSync(benchDir)
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => f.slice(0, -SUFFIX.length))
    .sort();
  const unknown = requested.filter((name) => !available.includes(name));
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(", ")}; available: ${available.join(", ")}`);
    return 2;
  }
  const selected = requested.length ? available.filter((name) => requested.includes(name)) : available;
  const environment = describeEnvironment();
  const date = new Date().toISOString();
  mkdirSync(resultsDir, { recursive: true });

  const failed: string[] = [];
  for (const name of selected) {
    console.error(`bench: ${name} …`);
    const started = performance.now();
    const outcome = await runModule(`${name}${SUFFIX}`);
    const durationMs = Math.round(performance.now() - started);
    const recorded: RecordedRun =
      "result" in outcome
        ? { name, date, environment, durationMs, ...outcome.result }
        : // Stack traces name files under the checkout; results are committed, so keep them relative.
          { name, date, environment, durationMs, failure: outcome.failure.replaceAll(repoDir, "<repo>") };
    writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify(recorded, null, 2)}\n`);
    writeFileSync(join(resultsDir, `${name}.md`), `${moduleMarkdown(recorded, environment)}\n`);
    console.log(`${moduleMarkdown(recorded, environment)}\n`);
    if (recorded.failure !== undefined) failed.push(name);
    console.error(
      `bench: ${name} ${recorded.failure === undefined ? "done" : "FAILED"} in ${(durationMs / 1000).toFixed(1)} s`,
    );
  }

  writeFileSync(join(resultsDir, "README.md"), combinedReadme(available, date, environment));
  if (failed.length)
    console.error(`bench: ${failed.length} of ${selected.length} failed: ${failed.join(", ")}`);
  return failed.length ? 1 : 0;
}

/** Runs one module in a child process (same node flags: --expose-gc, tsx) within its timeout. */
function runModule(file: string): Promise<{ result: BenchResult } | { failure: string }> {
  const override = Number(process.env.BENCH_TIMEOUT_MS);
  const fixed = Number.isFinite(override) && override > 0 ? override : undefined;
  return new Promise((settle) => {
    // The child's stdout goes to our stderr: stdout carries only the results' markdown.
    const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child", file], {
      execArgv: process.execArgv,
      stdio: ["ignore", 2, 2, "ipc"],
    });
    let outcome: { result: BenchResult } | { failure: string } | undefined;
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        outcome ??= { failure: `timed out after ${Math.round(ms / 1000)} s` };
        child.kill("SIGKILL");
      }, ms);
    };
    arm(fixed ?? LOAD_TIMEOUT_MS);
    child.on("message", (message: ChildMessage) => {
      if (message.type === "started") arm(fixed ?? message.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      else if (message.type === "result") {
        outcome ??= { result: message.result };
        // The result is in; a module that left a handle open must not keep the run waiting.
        clearTimeout(timer);
        timer = setTimeout(() => child.kill("SIGKILL"), EXIT_GRACE_MS);
      } else outcome ??= { failure: message.message };
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      settle(outcome ?? { failure: `exited without a result (${signal ?? `code ${code}`})` });
    });
  });
}

function describeEnvironment(): Environment {
  return {
    node: process.version,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    cores: availableParallelism(),
    os: `${platform()} ${release()}`,
  };
}

function environmentLine(e: Environment): string {
  return `Node ${e.node} · ${e.cpu} · ${e.cores} cores · ${e.os}`;
}

function moduleMarkdown(run: RecordedRun, current: Environment): string {
  const heading = `## ${run.title ?? run.name} (\`${run.name}\`)`;
  const when = `Measured ${run.date} in ${(run.durationMs / 1000).toFixed(1)} s${
    environmentLine(run.environment) === environmentLine(current)
      ? ""
      : ` · ${environmentLine(run.environment)}`
  }.`;
  const body =
    run.failure === undefined ? run.markdown : ["**Failed.**", "", "```", run.failure, "```"].join("\n");
  return [heading, "", when, "", body].join("\n");
}

/** Every module's latest recorded run, this run's and earlier ones', under this run's header. */
function combinedReadme(modules: readonly string[], date: string, environment: Environment): string {
  const sections: string[] = [];
  for (const name of modules) {
    const file = join(resultsDir, `${name}.json`);
    if (!existsSync(file)) continue;
    sections.push(moduleMarkdown(JSON.parse(readFileSync(file, "utf8")) as RecordedRun, environment));
  }
  return [
    "# Benchmark results",
    "",
    `Last run ${date} · ${environmentLine(environment)}. Generated by \`npm run bench\`; ` +
      "see bench/README.md for what each benchmark measures. A section from an earlier run " +
      "names its own machine when it differs.",
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}
