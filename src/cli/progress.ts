import cliProgress from "cli-progress";

/** Shorter work finishes before a bar is worth drawing. */
const MIN_TOTAL_FOR_BAR = 50;

export interface ProgressReporter {
  update(event: { collection: string; done: number; total: number }): void;
  stop(): void;
}

/**
 * A progress bar on stderr, only when stderr is a terminal and the caller is not producing
 * machine output: a pipe or a CI log gets no escape codes.
 */
export function progressReporter(
  enabled: boolean,
  stream: NodeJS.WriteStream = process.stderr,
  words: { verb: string; unit: string; minTotal?: number } = { verb: "indexing", unit: "files" },
): ProgressReporter {
  if (!enabled || !stream.isTTY) return { update() {}, stop() {} };
  let bar: cliProgress.SingleBar | undefined;
  let current = "";
  return {
    update({ collection, done, total }) {
      if (total < (words.minTotal ?? MIN_TOTAL_FOR_BAR)) return;
      if (collection !== current) {
        bar?.stop();
        current = collection;
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
