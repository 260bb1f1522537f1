// The time bound on parsing one file is a bound on the work done — the CPU time of the thread
// that parses it — with wall-clock time only as the last resort. A wall-clock bound alone
// refused benign files on a busy machine: a 4,999-page PDF that needs 16 s of CPU took over 60 s
// of wall time on a shared 2-core machine whose parser thread got a third of a core, and was
// skipped, while a hostile file that burns CPU is stopped at the same bound either way.
//
// Linux tells a thread's CPU time through /proc (`schedstat`, in nanoseconds; else `stat`, in
// clock ticks); where it does not, the bound is wall-clock time, as before.
import { readFileSync, readlinkSync } from "node:fs";

/** The wall-clock last resort, as a multiple of the CPU-time bound. */
export const WALL_CLOCK_FACTOR = 5;
/** Linux's USER_HZ, the unit of `stat`'s utime and stime, on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The /proc folder of the calling thread (`/proc/<pid>/task/<tid>`), from which another thread
 * of the process can read its CPU time; undefined where there is none (not Linux).
 */
export function ownThreadClock(): string | undefined {
  try {
    const clock = `/proc/${readlinkSync("/proc/thread-self")}`;
    return threadCpuMs(clock) === undefined ? undefined : clock;
  } catch {
    return undefined;
  }
}

/** CPU time, in ms, the thread with /proc folder `clock` has used; undefined once it is gone. */
export function threadCpuMs(clock: string): number | undefined {
  try {
    const ns = Number(readFileSync(`${clock}/schedstat`, "latin1").split(" ", 1)[0]);
    if (Number.isFinite(ns) && ns > 0) return ns / 1e6;
  } catch {
    // No schedstat (a kernel without scheduler statistics): `stat` has the same, in ticks.
  }
  try {
    const stat = readFileSync(`${clock}/stat`, "latin1");
    // Fields after the command name, which is in parentheses and may hold spaces: utime, stime
    // are fields 14 and 15 of the line, 12 and 13 after the name.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** What a parse has used so far: wall time, and CPU time when the platform tells it. */
export interface ParseUsage {
  wallMs: number;
  cpuMs: number | undefined;
}

export type BoundCheck = { over: "cpu" | "wall"; reason: string } | { over: false; recheckInMs: number };

/**
 * The rule: a parse stops when its thread has used `cpuBudgetMs` of CPU time, or, where CPU time
 * is not known, `cpuBudgetMs` of wall time; and in any case at `wallBudgetMs` of wall time (a
 * parse that waits rather than works). Otherwise the earliest moment either could be reached:
 * one thread uses at most one millisecond of CPU per millisecond.
 */
export function checkParseBound(usage: ParseUsage, cpuBudgetMs: number, wallBudgetMs: number): BoundCheck {
  const { wallMs, cpuMs } = usage;
  const limit = describeMs(cpuBudgetMs);
  if (cpuMs === undefined) {
    if (wallMs >= cpuBudgetMs)
      return { over: "wall", reason: `parsing took longer than the ${limit} limit per file` };
    return { over: false, recheckInMs: cpuBudgetMs - wallMs };
  }
  if (cpuMs >= cpuBudgetMs) {
    return { over: "cpu", reason: `parsing took longer than the ${limit} limit per file` };
  }
  if (wallMs >= wallBudgetMs) {
    return {
      over: "wall",
      reason: `parsing took longer than the ${describeMs(wallBudgetMs)} wall-clock limit per file (${WALL_CLOCK_FACTOR} × the ${limit} CPU-time limit; it had used ${describeMs(cpuMs)} of CPU)`,
    };
  }
  return { over: false, recheckInMs: Math.max(1, Math.min(cpuBudgetMs - cpuMs, wallBudgetMs - wallMs)) };
}

/** `60 s`, `1.5 s`. */
export function describeMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Calls `onOver` once a parse passes its bound ({@link checkParseBound}), counted from now, with
 * its CPU time read by `readCpuMs` (undefined where it cannot be: the bound is then wall time);
 * the returned function cancels it. Checked when the bound could first be reached, and again
 * whenever it next could be.
 */
export function watchParse(
  readCpuMs: () => number | undefined,
  cpuBudgetMs: number,
  wallBudgetMs: number,
  onOver: (reason: string) => void,
): () => void {
  const started = performance.now();
  const cpuAtStart = readCpuMs();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = readCpuMs();
    const cpuMs = now === undefined || cpuAtStart === undefined ? undefined : now - cpuAtStart;
    const result = checkParseBound({ wallMs: performance.now() - started, cpuMs }, cpuBudgetMs, wallBudgetMs);
    if (result.over) onOver(result.reason);
    else timer = setTimeout(check, result.recheckInMs);
  };
  timer = setTimeout(check, cpuBudgetMs);
  return () => clearTimeout(timer);
}

/**
 * Calls `onOver` once the calling thread's parse passes its bound ({@link watchParse}); the
 * returned function cancels it. A timer, so it fires only when the parse yields: the pool's own
 * watch (ingest-pool.ts) holds a parse that never does.
 */
export function watchOwnParse(
  cpuBudgetMs: number,
  onOver: (reason: string) => void,
  wallBudgetMs = cpuBudgetMs * WALL_CLOCK_FACTOR,
): () => void {
  const clock = ownThreadClock();
  const readCpuMs = clock === undefined ? () => undefined : () => threadCpuMs(clock);
  return watchParse(readCpuMs, cpuBudgetMs, wallBudgetMs, onOver);
}
