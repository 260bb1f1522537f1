// Runs the `second-look` command in-process, as a user would from a shell, and captures what it
// writes: end-to-end tests of the CLI without building or spawning it.
import { Writable } from "node:stream";
import { main } from "../../src/cli/main.js";

export interface CliRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

export async function runCli(args: string[]): Promise<CliRun> {
  const stdout = capture();
  const stderr = capture();
  process.exitCode = 0;
  await main(args, { stdout: stdout.stream, stderr: stderr.stream });
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { stdout: stdout.text(), stderr: stderr.text(), exitCode };
}

/** stdout of a run that must succeed (exit 0); the stderr line is in the error otherwise. */
export async function cliOutput(args: string[]): Promise<string> {
  const run = await runCli(args);
  if (run.exitCode !== 0)
    throw new Error(`second-look ${args.join(" ")} exited ${run.exitCode}: ${run.stderr.trim()}`);
  return run.stdout;
}

/** `second-look eval <bot> --questions <file> …extra`, run as runCli runs it. */
export function runBotEval(bot: string, questions: string, ...extra: string[]): Promise<CliRun> {
  return runCli(["eval", bot, "--questions", questions, ...extra]);
}
