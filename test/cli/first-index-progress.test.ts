// A first index started by `search` or `mcp` on a bot never indexed says how it advances on
// stderr even when stderr is a pipe (no terminal, so no bar): plain lines, at a bounded rate.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliProcess, startCli } from "../support/cli-process.js";

const FILES = 60;
let root: string;

/** A bot of FILES small Markdown pages, never indexed. */
async function freshBot(name: string): Promise<string> {
  const bot = join(root, name);
  await mkdir(join(bot, "docs"), { recursive: true });
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({ knowledge: { collections: { docs: { paths: ["docs/*.md"] } } } }),
  );
  await Promise.all(
    Array.from({ length: FILES }, (_, i) =>
      writeFile(join(bot, "docs", `page-${i}.md`), `# Page ${i}\n\nThe ferry leaves pier ${i} at noon.\n`),
    ),
  );
  return bot;
}

const indexingLines = (stderr: string, prefix = "") =>
  stderr
    .split("\n")
    .filter(
      (line) => line.startsWith(`${prefix}indexing docs: `) || line.includes(`"${prefix}indexing docs: `),
    );

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-first-index-"));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe("a first index started by search or mcp, stderr piped", () => {
  it("search prints plain progress lines, ending with the count and time; once indexed, none", async () => {
    const bot = await freshBot("search-bot");
    const first = await runCliProcess(["search", bot, "ferry pier"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const lines = indexingLines(first.stderr);
    expect(lines[0]).toMatch(/^indexing docs: \d+\/60 files \(\d+ %\)$/);
    expect(lines.at(-1)).toMatch(/^indexing docs: 60\/60 files \(100 %\), \d+\.\d s$/);
    // No terminal, no escape codes.
    expect(first.stderr).not.toContain("\u001b[");
    expect(first.stdout).toContain("ferry");

    const again = await runCliProcess(["search", bot, "ferry pier"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(indexingLines(again.stderr)).toEqual([]);
  }, 60_000);

  it("mcp reports the same lines through its log", async () => {
    const bot = await freshBot("mcp-bot");
    const { child, done } = startCli(["mcp", bot], {}, { stdin: true });
    // A client that goes away at once: the server has indexed before it serves, then exits.
    child.stdin!.end();
    const run = await done;
    const lines = indexingLines(run.stderr, "mcp: ");
    expect(lines.length, run.stderr).toBeGreaterThanOrEqual(1);
    expect(lines.at(-1)).toMatch(/"msg":"mcp: indexing docs: 60\/60 files \(100 %\), \d+\.\d s"/);
  }, 60_000);
});
