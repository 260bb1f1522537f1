// `second-look index` as a person reads it: counts in words ("1 file"), each skipped file with
// its reason, an empty collection said plainly (and warned about in the log, for every command),
// file names that cannot drive the terminal, and the index kept out of a read-only bot folder
// when SECOND_LOOK_INDEX_DIR says where it goes.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { indexDirectory } from "../../src/backends/embedded/open-embedded.js";
import { createLogger, setLogger } from "../../src/telemetry/logger.js";
import { runCli } from "../support/run-cli.js";

let root: string;
const saved = process.env.SECOND_LOOK_INDEX_DIR;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-index-out-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  if (saved === undefined) delete process.env.SECOND_LOOK_INDEX_DIR;
  else process.env.SECOND_LOOK_INDEX_DIR = saved;
  setLogger(createLogger({ level: "silent" }));
});

async function bot(
  name: string,
  files: Record<string, string | Buffer>,
  collections: Record<string, unknown>,
) {
  const dir = join(root, name);
  await mkdir(join(dir, "docs"), { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, "docs", file), text);
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({ knowledge: { backend: "embedded", collections } }),
  );
  return dir;
}

function captureWarnings(): () => { msg: string }[] {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _e, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  setLogger(createLogger({ level: "warn", destination: stream }));
  return () => lines.filter((l) => l.level === 40);
}

describe("second-look index, human output", () => {
  it("says 1 file, lists each skipped file with its reason, and says when a collection is empty", async () => {
    const dir = await bot(
      "counts",
      { "one.md": "# One\n\nText.", "broken.pdf": Buffer.from("%PDF-1.7 not really a pdf") },
      {
        notes: { paths: ["docs/*.md"] },
        pdfs: { paths: ["docs/*.pdf"] },
        empty: { paths: ["nothing/**/*.md"] },
      },
    );
    const warnings = captureWarnings();
    const run = await runCli(["index", dir]);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^notes: 1 file · 1 added, 0 updated, 0 removed, 0 unchanged · \d+ ms$/);
    expect(lines[1]).toMatch(/^pdfs: 1 file · .*, 1 skipped · \d+ ms$/);
    expect(lines[2]).toMatch(/^ {2}skipped .*broken\.pdf: \S.+$/);
    expect(lines[3]).toMatch(
      /^empty: no files match its paths \(check knowledge\.collections\.empty\.paths in config\.json\)/,
    );
    expect(warnings().map((w) => w.msg)).toContainEqual(
      expect.stringMatching(/^collection empty: no files match its paths \["nothing\/\*\*\/\*\.md"\]/),
    );
  });

  it("counts the files of types no loader reads in one line, with what to save a document format as", async () => {
    const images = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`shot-${i}.png`, "png"]));
    const dir = await bot(
      "unread",
      { "guide.md": "# Guide\n\nText.", ...images, "minutes.doc": "old Word", "broken.pdf": "%PDF-1.7 no" },
      { everything: { paths: ["docs/*"] } },
    );
    const warnings = captureWarnings();
    const run = await runCli(["index", dir]);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^everything: 43 files · 1 added, .*, 42 skipped · \d+ ms$/);
    expect(lines.slice(1, 3)).toEqual([
      expect.stringMatching(/^ {2}skipped docs\/broken\.pdf: \S/),
      "  skipped 41 files of types no loader reads (40 .png, 1 .doc; save .doc as .docx to have them read)",
    ]);
    const said = warnings().map((w) => w.msg);
    expect(said.filter((m) => m.includes(".png"))).toEqual([
      "collection everything: skipped 41 files of types no loader reads (40 .png, 1 .doc; save .doc as .docx to have them read)",
    ]);
    // The run's report still names every file, for scripts.
    const json = await runCli(["index", dir, "--json"]);
    const report = JSON.parse(json.stdout) as { collections: { skipped: { path: string }[] }[] };
    expect(report.collections[0]?.skipped).toHaveLength(42);
  });

  it("escapes control characters of file names and titles on the terminal", async () => {
    const dir = await bot(
      "escapes",
      { "evil\u001b[2J.md": "# Title \u001b]0;owned\u0007\n\nvacation policy text" },
      {
        notes: { paths: ["docs/*.md"] },
      },
    );
    const run = await runCli(["search", dir, "vacation policy", "--no-correct"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain("\u001b");
    expect(run.stdout).toContain("evil\\u001b[2J.md");
  });

  it("a Huginn bot: one line saying the Huginn server indexes its collections, exit 0", async () => {
    const dir = join(root, "huginn");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "config.json"),
      JSON.stringify({
        knowledge: { backend: "huginn", huginn: { url: "http://127.0.0.1:9", collections: ["wiki"] } },
      }),
    );
    const run = await runCli(["index", dir]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(
      "huginn searches the Huginn server at http://127.0.0.1:9, which indexes its own collections: nothing to index here\n" +
        `bot huginn: correctiveRetrieval is off (the default), so weak searches are not re-queried; add "correctiveRetrieval": {"enabled": true, "grader": "signal"} to ${join(dir, "config.json")} to turn it on\n`,
    );
  });

  it("SECOND_LOOK_INDEX_DIR keeps the index out of the bot folder, one folder per bot", async () => {
    const dir = await bot("elsewhere", { "one.md": "# One\n\nText." }, { notes: { paths: ["docs/*.md"] } });
    const indexes = join(root, "indexes");
    process.env.SECOND_LOOK_INDEX_DIR = indexes;
    expect((await runCli(["index", dir])).exitCode).toBe(0);
    expect(existsSync(join(dir, ".second-look"))).toBe(false);
    expect(await readdir(indexDirectory(dir))).toContain("notes.manifest.json");
    expect(indexDirectory(dir)).not.toBe(indexDirectory(join(root, "other", "elsewhere")));
  });
});
