// Issue 32, D9: a config.json nested thousands of levels deep failed every command with
// "Maximum call stack size exceeded", and a NUL in a path gave Node's own error (or, in a glob,
// no error at all): neither named the file and the key. Each is now one line naming both.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBotConfig } from "../../src/bots/load-config.js";
import { runCli } from "../support/run-cli.js";

let root: string;
const knowledge = { backend: "embedded", collections: { docs: { paths: ["docs/**/*.md"] } } };

async function botWith(name: string, configText: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "docs"), { recursive: true });
  await writeFile(join(dir, "docs", "a.md"), "# A\n\nSome words.\n");
  await writeFile(join(dir, "config.json"), configText);
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-config-shapes-"));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** The one error line `search` prints for the bot, after checking it is the only line. */
async function searchError(dir: string): Promise<string> {
  const run = await runCli(["search", dir, "words"]);
  expect(run.exitCode).not.toBe(0);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe("config.json shapes no key has", () => {
  it("deeply nested JSON: one line naming the file and the key, no stack overflow", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const dir = await botWith("deep", `{"knowledge": ${JSON.stringify(knowledge)}, "description": ${deep}}`);
    const line = await searchError(dir);
    expect(line).not.toMatch(/call stack/i);
    expect(line).toMatch(/config\.json: description(\[0\])+: nested more than 32 levels deep/);
    // An unknown key holding the nesting is refused the same way, before any "did you mean".
    const unknown = await botWith(
      "deep-unknown",
      `{"knowledge": ${JSON.stringify(knowledge)}, "x": {"y": ${deep}}}`,
    );
    await expect(readBotConfig(join(unknown, "config.json"))).rejects.toThrow(
      /: x\.y(\[0\])+: nested more than/,
    );
  });

  it("a NUL in the persona path: one line naming the file and the key, not Node's raw error", async () => {
    const dir = await botWith("nul-persona", JSON.stringify({ knowledge, persona: "voice\u0000.md" }));
    const line = await searchError(dir);
    expect(line).toMatch(/config\.json: persona: contains a NUL character \(\\u0000\)/);
    expect(line).not.toContain("\u0000");
    expect(line).not.toMatch(/argument 'path'|ERR_INVALID_ARG_VALUE/);
  });

  it("a NUL in a collection's glob or in a key: the key is named, not an empty collection", async () => {
    const glob = await botWith(
      "nul-glob",
      JSON.stringify({
        knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/\u0000*.md"] } } },
      }),
    );
    expect(await searchError(glob)).toMatch(
      /config\.json: knowledge\.collections\.docs\.paths\[0\]: contains a NUL character/,
    );
    const key = await botWith(
      "nul-key",
      JSON.stringify({
        knowledge: { backend: "embedded", collections: { "do\u0000cs": { paths: ["docs/*.md"] } } },
      }),
    );
    expect(await searchError(key)).toMatch(
      /config\.json: knowledge\.collections\["do\\u0000cs"\]: the key contains a NUL character/,
    );
  });

  it("a NUL in the bot path on the command line: named escaped, never written raw", async () => {
    const run = await runCli(["search", join(root, "no\u0000bot"), "words"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).not.toContain("\u0000");
    expect(run.stderr).toContain("no\\u0000bot");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });
});
