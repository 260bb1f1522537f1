// A bot's answers run through one bounded queue shared by its chat hosts: at most `concurrency`
// questions reach the model at once and at most `maxQueued` wait, so a burst of messages (a
// channel-wide mention, a retry storm) cannot exhaust the process or the model provider's quota.
// Past the bound the host says it is busy instead of queueing without limit.

import { DEADLINES } from "../deadline.js";
import type { Logger } from "../telemetry/logger.js";

/** One answer: it must settle; the signal fires when shutdown's grace period is over. */
export type AnswerJob = (signal: AbortSignal) => Promise<void>;

export interface AnswerQueueOptions {
  /** Questions answered at the same time (>= 1). */
  concurrency: number;
  /** Questions allowed to wait beyond those running (>= 0). */
  maxQueued: number;
  log?: Logger;
}

export interface DrainOutcome {
  /** True when every accepted job finished before the timeout (none was aborted). */
  completed: boolean;
  /** Jobs that were still running or waiting when the timeout fired. */
  aborted: number;
}

/** How long aborted jobs get to post their one-sentence apology before shutdown goes on. */
const ABORT_GRACE_MS = DEADLINES.answerAbortGraceMs;

export class AnswerQueue {
  readonly concurrency: number;
  readonly maxQueued: number;
  private readonly waiting: AnswerJob[] = [];
  private running = 0;
  private peak = 0;
  private accepting = true;
  private readonly stop = new AbortController();
  private readonly idleWaiters: Array<() => void> = [];
  private readonly log: Logger | undefined;

  constructor(options: AnswerQueueOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`concurrency must be a whole number >= 1, got ${options.concurrency}`);
    }
    if (!Number.isInteger(options.maxQueued) || options.maxQueued < 0) {
      throw new RangeError(`maxQueued must be a whole number >= 0, got ${options.maxQueued}`);
    }
    this.concurrency = options.concurrency;
    this.maxQueued = options.maxQueued;
    this.log = options.log;
  }

  /** Questions being answered now. */
  get active(): number {
    return this.running;
  }

  /** Questions waiting for a free slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** The most questions ever answered at the same time (never above `concurrency`). */
  get highWater(): number {
    return this.peak;
  }

  /** Whether `offer` would accept a job now (hosts check before posting a placeholder). */
  hasRoom(): boolean {
    return this.accepting && (this.running < this.concurrency || this.waiting.length < this.maxQueued);
  }

  /** Runs the job now or queues it; false when the queue is full or shutting down. */
  offer(job: AnswerJob): boolean {
    if (!this.hasRoom()) return false;
    if (this.running < this.concurrency) this.start(job);
    else this.waiting.push(job);
    return true;
  }

  /**
   * Stops accepting, lets running and waiting jobs finish within `timeoutMs`, then aborts the
   * rest (they still run, with an aborted signal, so each user hears why) and waits a short
   * grace period for them to settle.
   */
  async drain(timeoutMs: number): Promise<DrainOutcome> {
    this.accepting = false;
    if (await this.idleWithin(timeoutMs)) return { completed: true, aborted: 0 };
    const aborted = this.running + this.waiting.length;
    this.stop.abort(new Error("shutting down"));
    while (this.running < this.concurrency && this.waiting.length > 0) this.start(this.waiting.shift()!);
    await this.idleWithin(ABORT_GRACE_MS);
    return { completed: false, aborted };
  }

  private start(job: AnswerJob): void {
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    // A job that throws is a host bug, not a reason to lose the slot or the jobs behind it.
    Promise.resolve()
      .then(() => job(this.stop.signal))
      .catch((error: unknown) => this.log?.error({ err: error }, "answer job failed"))
      .finally(() => {
        this.running--;
        const next = this.waiting.shift();
        if (next) this.start(next);
        else if (this.running === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
  }

  private idleWithin(timeoutMs: number): Promise<boolean> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = this.idleWaiters.indexOf(wake);
        if (at >= 0) this.idleWaiters.splice(at, 1);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.idleWaiters.push(wake);
    });
  }
}
