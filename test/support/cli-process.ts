// Runs the CLI as a separate process (through tsx, no build needed): for what an in-process run
// cannot show — peak memory, exit on its own, being killed with SIGKILL.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("./cli-entry.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSX_LOADER = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

export interface CliProcessRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  /** Peak resident memory of the whole process (undefined when it was killed). */
  maxRssMb?: number;
  /** CPU time of the whole process, every thread (undefined when it was killed). */
  cpuMs?: number;
}

export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  /** `stdin: true`: a pipe the test writes to (an MCP client's requests), else none; `cwd`: the working directory (default the repository). */
  options: { stdin?: boolean; cwd?: string } = {},
): {
  child: ChildProcess;
  done: Promise<CliProcessRun>;
  /** What the process has written to stdout so far. */
  stdout: () => string;
} {
  const started = performance.now();
  // tsx named by its file: a working directory outside the repository cannot resolve the package.
  const child = spawn(process.execPath, ["--import", TSX_LOADER, ENTRY, ...args], {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, ...env },
    stdio: [options.stdin ? "pipe" : "ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c) => {
    stdout += String(c);
  });
  child.stderr!.on("data", (c) => {
    stderr += String(c);
  });
  const done = new Promise<CliProcessRun>((resolve) => {
    child.on("close", (exitCode, signal) => {
      const last = /\{"maxRssKb":(\d+),"cpuMs":(\d+)\}\s*$/.exec(stderr);
      resolve({
        stdout,
        stderr,
        exitCode,
        signal,
        ms: Math.round(performance.now() - started),
        ...(last ? { maxRssMb: Math.round(Number(last[1]) / 1024), cpuMs: Number(last[2]) } : {}),
      });
    });
  });
  return { child, done, stdout: () => stdout };
}

export function runCliProcess(args: string[], env?: NodeJS.ProcessEnv): Promise<CliProcessRun> {
  return startCli(args, env).done;
}
