// `eval <bot> --questions` with several files (one per language of the same questions): a list
// or a glob, each file judged and reported on its own, labelled by what tells the names apart.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliError } from "../../src/cli/cli-error.js";
import { questionFileLabels, questionFiles } from "../../src/cli/question-files.js";
import type { BotEvalReport } from "../../src/evaluation/evaluate-bot.js";
import { runCli } from "../support/run-cli.js";

let dir: string;
let bot: string;

// Two pages; the English file's question finds the kettle page, the German one's words are on
// no page (this engine analyses as English), so the same judged question misses in German.
const questions: Record<string, object[]> = {
  "queries.en.jsonl": [
    { id: "q1", text: "descale the kettle", kind: "answerable", relevant: ["kettle.md"] },
    { id: "q2", text: "quantum chromodynamics", kind: "unanswerable" },
  ],
  "queries.de.jsonl": [
    { id: "q1", text: "Wasserkocher entkalken", kind: "answerable", relevant: ["kettle.md"] },
    { id: "q2", text: "Quantenchromodynamik", kind: "unanswerable" },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "second-look-eval-files-"));
  bot = join(dir, "tinybot");
  await mkdir(join(bot, "docs"), { recursive: true });
  await writeFile(join(bot, "docs", "kettle.md"), "# Kettle\n\nDescale the kettle monthly.\n");
  await writeFile(join(bot, "docs", "bicycle.md"), "# Bicycle\n\nPump bicycle tyres weekly.\n");
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({
      knowledge: { backend: "embedded", collections: { kb: { paths: ["docs/**/*.md"] } } },
      correctiveRetrieval: { enabled: true, grader: "signal" },
    }),
  );
  for (const [name, lines] of Object.entries(questions)) {
    await writeFile(join(dir, name), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  }
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("questionFileLabels", () => {
  it("strips the prefix and suffix every name shares", () => {
    expect(
      questionFileLabels(["a/queries.de.jsonl", "a/queries.en-us.jsonl", "b/queries.zh-cn.jsonl"]),
    ).toEqual(["de", "en-us", "zh-cn"]);
  });

  it("keeps whole names for a lone file and where stripping leaves an empty label", () => {
    expect(questionFileLabels(["x/queries.de.jsonl"])).toEqual(["queries.de.jsonl"]);
    expect(questionFileLabels(["q.jsonl", "qa.jsonl"])).toEqual(["q.jsonl", "qa.jsonl"]);
  });
});

describe("questionFiles", () => {
  it("expands a glob in name order and keeps a list's order, each file once", async () => {
    expect(await questionFiles("queries.*.jsonl", dir)).toEqual(["queries.de.jsonl", "queries.en.jsonl"]);
    expect(await questionFiles("b.jsonl, a.jsonl,b.jsonl", dir)).toEqual(["b.jsonl", "a.jsonl"]);
  });

  it("fails on a pattern that matches nothing and on an empty value", async () => {
    await expect(questionFiles("nothing.*.jsonl", dir)).rejects.toThrow(CliError);
    await expect(questionFiles(" , ", dir)).rejects.toThrow("--questions is empty");
  });
});

describe("eval <bot> --questions with several files", () => {
  it("reports each file under its label, with its own figures", async () => {
    const run = await runCli([
      "eval",
      bot,
      "--questions",
      join(dir, "queries.*.jsonl"),
      "--compare",
      "off",
      "--json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const out = JSON.parse(run.stdout) as { bot: string; reports: (BotEvalReport & { label: string })[] };
    expect(out.bot).toBe("tinybot");
    expect(out.reports.map((r) => r.label)).toEqual(["de", "en"]);
    const hit1 = Object.fromEntries(out.reports.map((r) => [r.label, r.settings[0]!.search.hit1]));
    expect(hit1).toEqual({ de: 0, en: 1 });
    expect(out.reports[1]!.questionsFile).toBe(join(dir, "queries.en.jsonl"));
  });

  it("prints one report per file and a side-by-side table", async () => {
    const list = `${join(dir, "queries.en.jsonl")},${join(dir, "queries.de.jsonl")}`;
    const run = await runCli(["eval", bot, "--questions", list, "--compare", "off"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("## en (");
    expect(run.stdout).toContain("## de (");
    const table = run.stdout.slice(run.stdout.indexOf("per questions file"));
    expect(table).toMatch(/\ben\b[^\n]*\boff\b[^\n]*100/);
    expect(table).toMatch(/\bde\b[^\n]*\boff\b[^\n]*0/);
  });

  it("keeps the one-file JSON shape for a single file", async () => {
    const run = await runCli([
      "eval",
      bot,
      "--questions",
      join(dir, "queries.en.jsonl"),
      "--compare",
      "off",
      "--json",
    ]);
    const report = JSON.parse(run.stdout) as BotEvalReport & { label?: string };
    expect(report.label).toBeUndefined();
    expect(report.settings[0]!.search.hit1).toBe(1);
  });
});
