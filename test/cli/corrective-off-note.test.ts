// A bot whose config leaves corrective retrieval off says so where its owner looks — the `bots`
// row, the end of `index`, the first stderr line of `search` — with the key that turns it on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.js";

let root: string;
const saved = { ...process.env };
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "second-look-off-note-"));
  for (const key of Object.keys(process.env))
    if (key.startsWith("CORRECTIVE_RETRIEVAL_")) delete process.env[key];
  process.env.SECOND_LOOK_LOG_LEVEL = "silent";
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

function bot(name: string, corrective?: unknown): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "docs"), { recursive: true });
  writeFileSync(join(dir, "docs/leave.md"), "# Leave\n\nYou get twenty-five days of annual leave.\n");
  const config: Record<string, unknown> = {
    knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**/*.md"] } } },
  };
  if (corrective !== undefined) config.correctiveRetrieval = corrective;
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
  return dir;
}

describe("corrective retrieval off, said where the owner looks", { timeout: 30_000 }, () => {
  it("index ends with the line naming the key; search's first stderr line says the same", async () => {
    const dir = bot("plain");
    const expected = `bot plain: correctiveRetrieval is off (the default), so weak searches are not re-queried; add "correctiveRetrieval": {"enabled": true, "grader": "signal"} to ${join(dir, "config.json")} to turn it on`;
    const indexed = await runCli(["index", dir]);
    expect(indexed.exitCode).toBe(0);
    expect(indexed.stdout.trim().split("\n").at(-1)).toBe(expected);

    const searched = await runCli(["search", dir, "annual leave"]);
    expect(searched.exitCode).toBe(0);
    expect(searched.stderr.split("\n")[0]).toBe(expected);
    expect(searched.stdout).toContain("docs/leave.md");
  });

  it("names config's own false, and says nothing when the pass is on", async () => {
    const off = bot("switched-off", { enabled: false });
    const searched = await runCli(["search", off, "annual leave"]);
    expect(searched.stderr.split("\n")[0]).toBe(
      `bot switched-off: correctiveRetrieval is off (disabled in config), so weak searches are not re-queried; set correctiveRetrieval.enabled to true in ${join(off, "config.json")} to turn it on`,
    );

    const on = bot("switched-on", { enabled: true, grader: "signal" });
    const quiet = await runCli(["search", on, "annual leave"]);
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe("");
    const indexed = await runCli(["index", on]);
    expect(indexed.stdout).not.toContain("correctiveRetrieval");
  });

  it("the bots row shows off with the key that turns it on", async () => {
    const dir = bot("listed");
    const listed = await runCli(["bots", dir]);
    expect(listed.stdout).toContain(
      "correctiveRetrieval: off (default: set correctiveRetrieval.enabled to true to turn it on)",
    );
  });
});
