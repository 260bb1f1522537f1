// A usage mistake prints one line with a hint and exits 2 (src/cli/usage-errors.ts), not the help.
import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.js";

describe("usage errors", () => {
  it.each([
    [
      ["ask", "handbook", "q", "--jsn"],
      "error: unknown option '--jsn' (did you mean --json?)",
      "second-look ask",
    ],
    [["search"], "error: missing required argument 'bot'", "second-look search"],
    [["serch"], "error: unknown command 'serch' (did you mean search?)", "second-look"],
    [
      ["calibrate", "handbook"],
      "error: required option '--questions <file.jsonl>' not specified",
      "second-look calibrate",
    ],
  ])("second-look %j: one line, the hint, exit 2", async (args, line, command) => {
    const run = await runCli(args);
    expect(run.stderr).toBe(`${line}\nRun ${command} --help for usage.\n`);
    expect(run.stdout).toBe("");
    expect(run.exitCode).toBe(2);
  });

  it("--help still prints the help, exit 0", async () => {
    const run = await runCli(["search", "--help"]);
    expect(run.stdout).toMatch(/^Usage: second-look search/);
    expect(run.exitCode).toBe(0);
  });
});
