// `second-look eval … --json`, run in-process through the shared command (bench/rescue.bench.ts
// and bench/crosslang.bench.ts judge a bot exactly as a user's `eval` run would).
import { Writable } from "node:stream";
import { main } from "../src/cli/main.js";
import type { BotEvalReport } from "../src/evaluation/evaluate-bot.js";

/** The report of `second-look eval <args> --json`; throws with the command's stderr when it fails. */
export async function evalInProcess(args: readonly string[]): Promise<BotEvalReport> {
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
  if (Number(process.exitCode ?? 0) !== 0) throw new Error(`eval failed: ${err.trim()}`);
  process.exitCode = 0;
  return JSON.parse(out) as BotEvalReport;
}
