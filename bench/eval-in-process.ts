// `second-look eval … --json`, run in-process through the shared command (bench/rescue.bench.ts
// and bench/crosslang.bench.ts judge a bot exactly as a user's `eval` run would).
import { Writable } from "node:stream";
import { main } from "../src/cli/main.js";
import type { BotEvalReport } from "../src/evaluation/evaluate-bot.js";

/**
 * The report of `second-look eval <args> --json`; throws with the command's stderr when it fails.
 * `unreliableSettings`: settings expected not to run as configured (a replay with no recorded
 * reply for these questions, run only to count how often the model would be asked): eval's exit
 * for them is accepted, and the caller must not read their model-graded figures.
 */
export async function evalInProcess(
  args: readonly string[],
  options: { unreliableSettings?: readonly string[] } = {},
): Promise<BotEvalReport> {
  let out = "";
  let err = "";
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  process.exitCode = 0;
  await main(["eval", ...args, "--json"], {
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
  });
  const failed = Number(process.exitCode ?? 0) !== 0;
  process.exitCode = 0;
  if (failed && !out) throw new Error(`eval failed: ${err.trim()}`);
  const report = JSON.parse(out) as BotEvalReport;
  const expected = new Set(options.unreliableSettings ?? []);
  const unexpected = report.settings.filter((s) => !s.reliable && !expected.has(s.setting));
  if (failed && (unexpected.length || !report.settings.some((s) => !s.reliable))) {
    throw new Error(`eval failed: ${err.trim()}`);
  }
  return report;
}
