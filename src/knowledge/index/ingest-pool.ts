import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { DEADLINES } from "../../deadline.js";
import { ownAnalyzerDefinitions } from "../analysis/own-analyzers.js";
import { threadCpuMs, watchParse } from "../documents/parse-bound.js";
import type { IngestResult, IngestTask } from "./ingest-file.js";
import { type IngestLimits, wallTimeoutOf } from "./ingest-limits.js";

const MB = 1024 * 1024;
/** How often the process RSS is sampled while files are being parsed. */
const MEMORY_SAMPLE_MS = 50;
/** A fresh thread must have loaded its code within this (seconds under tsx, milliseconds from dist/). */
const STARTUP_TIMEOUT_MS = DEADLINES.ingestWorkerStartMs;

/** An idle parser thread is ended after this long (it may hold a large heap from its last file). */
const IDLE_MS = 30_000;
const STOPPED: IngestResult = { ok: false, reason: "indexing was stopped", stopped: true };

interface Pending {
  task: IngestTask;
  resolve: (result: IngestResult) => void;
  /** Runs with no other parse beside it, so the process RSS is its own (after a shared memory alarm). */
  solo: boolean;
}

interface Running {
  pending: Pending;
  seq: number;
  /** Stops the thread's start-up timer, then the watch on the file's parse time. */
  cancel: () => void;
  /** Process RSS and main-thread heap when the file was handed over (set once the thread is ready). */
  rssAtStart?: number;
  heapAtStart?: number;
}

interface Slot {
  idleTimer?: NodeJS.Timeout;
  worker?: Worker;
  ready?: Promise<boolean>;
  running?: Running;
  /** Where the thread's CPU time is read (`/proc/<pid>/task/<tid>`), when it can be. */
  clock?: string;
}

/** Reads a parser thread's CPU time in ms (parse-bound.ts); replaceable in tests. */
export type ThreadCpuClock = (clock: string) => number | undefined;

/**
 * A few worker threads that each turn one file at a time into an indexed document, under a
 * time bound and a memory bound that hold even when a parser never yields. The time bound is the
 * thread's CPU time (wall-clock time where it cannot be read), with a wall-clock last resort
 * (documents/parse-bound.ts), so a busy machine does not refuse a benign file. The heap bound
 * is the thread's `resourceLimits`; memory outside the heap (typed arrays a PDF stream inflates
 * into) is watched through the process RSS; a thread past either bound, or past its deadline,
 * is terminated and its file comes back `{ ok: false, reason }` naming the bound.
 *
 * RSS is one number for the whole process, so when it passes the bound for the files in flight
 * all of them are stopped and each is tried again alone, where the figure is its own: a file is
 * only refused for memory it used by itself.
 */
export class IngestPool {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private readonly soloQueue: Pending[] = [];
  private watchdog: NodeJS.Timeout | undefined;
  private seq = 0;
  private closed = false;

  constructor(
    readonly limits: IngestLimits,
    private readonly cpuClock: ThreadCpuClock = threadCpuMs,
  ) {
    this.slots = Array.from({ length: Math.max(1, limits.workers) }, () => ({}));
  }

  private static readonly pools = new Map<string, IngestPool>();

  /**
   * One pool per set of limits for the whole process: its threads outlive one refresh (a thread
   * starts in tens of milliseconds from dist/, seconds under tsx) and never keep the process
   * alive while idle.
   */
  static shared(limits: IngestLimits): IngestPool {
    const key = `${limits.fileTimeoutMs}/${wallTimeoutOf(limits)}/${limits.fileMemoryMb}/${limits.workers}`;
    let pool = IngestPool.pools.get(key);
    if (!pool || pool.closed) {
      pool = new IngestPool(limits);
      IngestPool.pools.set(key, pool);
    }
    return pool;
  }

  /** Parses one file; `signal` withdraws it (queued or running), which resolves it as stopped. */
  ingest(task: IngestTask, options: { signal?: AbortSignal } = {}): Promise<IngestResult> {
    const { signal } = options;
    if (this.closed || signal?.aborted) return Promise.resolve(STOPPED);
    return new Promise((resolve) => {
      const pending: Pending = { task, resolve, solo: false };
      const withdraw = () => this.withdraw(pending);
      signal?.addEventListener("abort", withdraw, { once: true });
      pending.resolve = (result) => {
        signal?.removeEventListener("abort", withdraw);
        resolve(result);
      };
      this.queue.push(pending);
      this.pump();
    });
  }

  private withdraw(pending: Pending): void {
    for (const queue of [this.queue, this.soloQueue]) {
      const at = queue.indexOf(pending);
      if (at >= 0) {
        queue.splice(at, 1);
        pending.resolve(STOPPED);
        return;
      }
    }
    const slot = this.slots.find((s) => s.running?.pending === pending);
    if (slot) {
      this.finish(slot, STOPPED);
      void this.discard(slot).then(() => this.pump());
    }
  }

  /** Stops every thread; files not finished come back as stopped. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [key, pool] of IngestPool.pools) if (pool === this) IngestPool.pools.delete(key);
    for (const pending of [...this.queue.splice(0), ...this.soloQueue.splice(0)]) {
      pending.resolve(STOPPED);
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.running) this.finish(slot, STOPPED);
        await this.discard(slot);
      }),
    );
    this.stopWatchdog();
  }

  private busy(): Slot[] {
    return this.slots.filter((s) => s.running !== undefined);
  }

  private pump(): void {
    if (this.closed) return;
    if (this.soloQueue.length > 0) {
      if (this.busy().length === 0) this.start(this.slots[0]!, this.soloQueue.shift()!);
      return;
    }
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.running) this.start(slot, this.queue.shift()!);
    }
  }

  private start(slot: Slot, pending: Pending): void {
    clearTimeout(slot.idleTimer);
    if (!slot.worker) this.spawn(slot);
    const worker = slot.worker!;
    worker.ref();
    const seq = ++this.seq;
    const { fileTimeoutMs } = this.limits;
    const wallTimeoutMs = wallTimeoutOf(this.limits);
    const stop = (reason: string) => {
      this.finish(slot, { ok: false, reason });
      void this.discard(slot).then(() => this.pump());
    };
    // A thread loads its code before the file's own clock starts.
    const startup = setTimeout(() => stop("the parser thread did not start"), STARTUP_TIMEOUT_MS);
    const running: Running = { pending, seq, cancel: () => clearTimeout(startup) };
    slot.running = running;
    void slot.ready!.then((ok) => {
      if (!ok || slot.running !== running || slot.worker !== worker) return;
      running.cancel();
      const clock = slot.clock;
      const readCpuMs = clock === undefined ? () => undefined : () => this.cpuClock(clock);
      running.cancel = watchParse(readCpuMs, fileTimeoutMs, wallTimeoutMs, (reason) => {
        if (slot.running === running) stop(reason);
      });
      running.rssAtStart = process.memoryUsage.rss();
      running.heapAtStart = process.memoryUsage().heapTotal;
      // A program's own analyzers (registerAnalyzer) exist in this thread only: sent with the file.
      const analyzers = ownAnalyzerDefinitions();
      worker.postMessage({ ...pending.task, ...(analyzers ? { analyzers } : {}), seq });
      this.startWatchdog();
    });
  }

  private spawn(slot: Slot): void {
    const entry = workerEntry();
    const worker = new Worker(entry.code, {
      eval: entry.eval,
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.fileMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.round(this.limits.fileMemoryMb / 16))),
      },
      // Parsers must never write to the CLI's stdout (the MCP JSON-RPC stream): the thread's output
      // is not piped to ours, and the thread itself discards it (ingest-worker.ts). Reading these
      // streams would hold the process open while the thread idles.
      stdout: true,
      stderr: true,
    });
    slot.worker = worker;
    slot.ready = new Promise<boolean>((resolve) => {
      const onReady = (message: { ready?: boolean; clock?: string }) => {
        if (message?.ready) {
          slot.clock = typeof message.clock === "string" ? message.clock : undefined;
          worker.off("message", onReady);
          resolve(true);
        }
      };
      worker.on("message", onReady);
      worker.once("exit", () => resolve(false));
    });
    worker.on("message", (message: { seq?: number; result?: IngestResult }) => {
      if (message?.seq === undefined || slot.worker !== worker) return;
      if (slot.running?.seq !== message.seq || !message.result) return;
      this.finish(slot, message.result);
      this.pump();
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      const reason =
        error.code === "ERR_WORKER_OUT_OF_MEMORY" ? this.memoryReason() : `parser crashed: ${error.message}`;
      if (slot.running) this.finish(slot, { ok: false, reason });
      void this.discard(slot).then(() => this.pump());
    });
    worker.on("exit", (code) => {
      if (slot.worker !== worker) return;
      if (slot.running) this.finish(slot, { ok: false, reason: `parser thread exited (code ${code})` });
      slot.worker = undefined;
      slot.ready = undefined;
      this.pump();
    });
  }

  private memoryReason(): string {
    return `parsing needed more than the ${this.limits.fileMemoryMb} MB memory limit per file`;
  }

  private finish(slot: Slot, result: IngestResult): void {
    const running = slot.running;
    if (!running) return;
    running.cancel();
    slot.running = undefined;
    const worker = slot.worker;
    if (worker) {
      worker.unref();
      slot.idleTimer = setTimeout(() => {
        if (!slot.running && slot.worker === worker) void this.discard(slot);
      }, IDLE_MS);
      slot.idleTimer.unref();
    }
    running.pending.resolve(result);
    if (this.busy().length === 0) this.stopWatchdog();
  }

  /** Terminates a slot's thread (a new one is spawned for its next file). */
  private async discard(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    const worker = slot.worker;
    slot.worker = undefined;
    slot.ready = undefined;
    slot.clock = undefined;
    if (worker) await worker.terminate().catch(() => undefined);
  }

  private startWatchdog(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => this.checkMemory(), MEMORY_SAMPLE_MS);
    this.watchdog.unref();
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  private checkMemory(): void {
    const started = this.busy().filter((s) => s.running!.rssAtStart !== undefined);
    if (started.length === 0) return;
    const earliest = started.reduce((a, b) => (a.running!.rssAtStart! <= b.running!.rssAtStart! ? a : b))
      .running!;
    const usage = process.memoryUsage();
    // What the main thread itself grew by (results it keeps) is not the parsers' doing.
    const mainGrowth = Math.max(0, usage.heapTotal - earliest.heapAtStart!);
    const parsersGrowth = usage.rss - earliest.rssAtStart! - mainGrowth;
    const allowed = started.length * this.limits.fileMemoryMb * MB;
    if (parsersGrowth <= allowed) return;
    if (started.length === 1 || started.some((s) => s.running!.pending.solo)) {
      for (const slot of started) {
        this.finish(slot, { ok: false, reason: this.memoryReason() });
        void this.discard(slot);
      }
    } else {
      // Which file it was cannot be told from one process-wide figure: retry each alone.
      for (const slot of started) {
        const { pending, cancel } = slot.running!;
        cancel();
        slot.running = undefined;
        this.soloQueue.push({ ...pending, solo: true });
        void this.discard(slot);
      }
      this.stopWatchdog();
    }
    queueMicrotask(() => this.pump());
  }
}

/**
 * The worker's code: the compiled module in dist/; in development and tests the TypeScript
 * source, loaded through tsx's API (Node 20 does not carry `--import` hooks into a worker).
 */
function workerEntry(): { code: string | URL; eval: boolean } {
  if (import.meta.url.endsWith(".ts")) {
    const tsxRoot = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
    const api = pathToFileURL(join(tsxRoot, "dist/esm/api/index.mjs")).href;
    const entry = new URL("./ingest-worker.ts", import.meta.url).href;
    const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
    return { code, eval: true };
  }
  return { code: new URL("./ingest-worker.js", import.meta.url), eval: false };
}
