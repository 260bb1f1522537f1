import { createRequire } from "node:module";
import type * as CliProgress from "cli-progress";
import type { RefreshProgressEvent } from "../knowledge/index/refresh.js";

/** Shorter work finishes before a bar is worth drawing. */
const MIN_TOTAL_FOR_BAR = 50;
/** Plain lines (stderr not a terminal): at most one a second, one per 10 % done or 5 s … */
const LINE_MIN_GAP_MS = 1_000;
const LINE_STEP_PERCENT = 10;
const LINE_HEARTBEAT_MS = 5_000;

/** What an update says: the index refresh's own progress event. */
export type ProgressEvent = RefreshProgressEvent;

export interface ProgressReporter {
  update(event: ProgressEvent): void;
  stop(): void;
}

export interface ProgressWords {
  verb: string;
  unit: string;
  minTotal?: number;
}

const SILENT: ProgressReporter = { update() {}, stop() {} };

/**
 * Progress on stderr unless the caller is producing machine output (`enabled` false): a bar when
 * stderr is a terminal; otherwise plain lines at a bounded rate (progressLines), so a pipe or a CI
 * log sees long work advance without escape codes.
 */
export function progressReporter(
  enabled: boolean,
  stream: NodeJS.WriteStream = process.stderr,
  words: ProgressWords = { verb: "indexing", unit: "files" },
): ProgressReporter {
  if (!enabled) return SILENT;
  if (!stream.isTTY) return progressLines((line) => stream.write(`${line}\n`), words);
  let bar: CliProgress.SingleBar | undefined;
  let current = "";
  return {
    update({ collection, done, total }) {
      if (total < (words.minTotal ?? MIN_TOTAL_FOR_BAR)) return;
      if (collection !== current) {
        bar?.stop();
        current = collection;
        const cliProgress = loadCliProgress();
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: `${words.verb} ${collection} [{bar}] {value}/{total} ${words.unit} · {eta_formatted} left`,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, 0);
      }
      bar?.update(done);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}

/** The bar's package on the first bar drawn: most runs draw none (machine output, a pipe, nothing to index). */
function loadCliProgress(): typeof CliProgress {
  return createRequire(import.meta.url)("cli-progress") as typeof CliProgress;
}

/**
 * One line per step of real work, never faster than one a second: the first item that costs
 * work (`read` > 0; a refresh that finds nothing changed prints nothing), then whenever another
 * 10 % is done or 5 s have passed, and the last item with the time taken. Lines per collection
 * are bounded by 12 plus one per 5 s, however many items there are.
 */
export function progressLines(
  write: (line: string) => void,
  words: ProgressWords = { verb: "indexing", unit: "files" },
  now: () => number = () => performance.now(),
): ProgressReporter {
  let current: { collection: string; started: number; lastAt: number; lastPercent: number } | undefined;
  return {
    update({ collection, done, total, read }) {
      if (total < (words.minTotal ?? MIN_TOTAL_FOR_BAR) || (read ?? done) === 0) return;
      const at = now();
      const percent = Math.floor((done / total) * 100);
      const line = `${words.verb} ${collection}: ${done}/${total} ${words.unit} (${percent} %)`;
      if (current?.collection !== collection) {
        current = { collection, started: at, lastAt: at, lastPercent: percent };
        write(line);
        return;
      }
      if (done === total) {
        write(`${line}, ${((at - current.started) / 1000).toFixed(1)} s`);
        current.lastAt = at;
        current.lastPercent = 100;
        return;
      }
      const gap = at - current.lastAt;
      if (gap < LINE_MIN_GAP_MS) return;
      if (percent - current.lastPercent < LINE_STEP_PERCENT && gap < LINE_HEARTBEAT_MS) return;
      current.lastAt = at;
      current.lastPercent = percent;
      write(line);
    },
    stop() {
      current = undefined;
    },
  };
}
