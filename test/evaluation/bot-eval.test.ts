// `second-look eval <bot> --questions`: the figures on a tiny hand-made bot, computed by hand,
// and the metric arithmetic on hand-made outcomes.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QuestionOutcome, summarizeOutcomes } from "../../src/evaluation/bot-metrics.js";
import type { BotEvalReport } from "../../src/evaluation/evaluate-bot.js";
import { firstAnswerRank, matchesJudgedPath } from "../../src/evaluation/judged-questions.js";
import { runCli } from "../support/run-cli.js";

let dir: string;
let bot: string;
let questions: string;

// Three pages whose words do not overlap except where a question needs them to.
const pages: Record<string, string> = {
  "docs/kitchen/kettle.md": "# Kettle\n\nThe kettle boils water for tea. Descale the kettle monthly.\n",
  "docs/kitchen/tea.md": "# Brewing\n\nSteep the leaves for three minutes; good tea needs patience.\n",
  "docs/garage/bicycle.md": "# Bicycle\n\nPump bicycle tyres weekly.\n",
};

// q1: only kettle.md has "descale" and "kettle"              → rank 1
// q2: kettle.md has both words (kettle twice), tea.md only "tea" → tea.md rank 2
// q3: judged answered by kettle.md, which has neither word     → a miss (rank 0)
// q4: no page has any of its words                              → no hits, unanswerable
const lines = [
  {
    id: "q1",
    text: "descale kettle",
    kind: "answerable",
    relevant: ["kitchen/kettle.md"],
    style: "keywords",
  },
  {
    id: "q2",
    text: "kettle tea",
    kind: "answerable",
    relevant: ["tea.md"],
    style: "keywords",
    vocab: "lexical",
  },
  { id: "q3", text: "bicycle tyres", kind: "answerable", relevant: ["kettle.md"], style: "question" },
  { id: "q4", text: "quantum chromodynamics", kind: "unanswerable", relevant: [], style: "question" },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "second-look-bot-eval-"));
  bot = join(dir, "tinybot");
  for (const [path, text] of Object.entries(pages)) {
    await mkdir(join(bot, path, ".."), { recursive: true });
    await writeFile(join(bot, path), text);
  }
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({
      knowledge: { backend: "embedded", collections: { kb: { paths: ["docs/**/*.md"] } } },
      correctiveRetrieval: { enabled: true, grader: "signal" },
    }),
  );
  questions = join(dir, "questions.jsonl");
  await writeFile(questions, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function evalJson(...extra: string[]): Promise<BotEvalReport> {
  const run = await runCli(["eval", bot, "--questions", questions, "--json", ...extra]);
  expect(run.stderr).toBe("");
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout) as BotEvalReport;
}

describe("eval <bot> --questions on a tiny hand-made bot", () => {
  it("reports the hand-computed ranks, hit rates and MRR of the search", async () => {
    const report = await evalJson("--compare", "off");
    expect(report.documents).toBe(3);
    const off = report.settings[0]!;
    expect(off.setting).toBe("off");
    expect(off.perQuestion.map((q) => [q.id, q.searchRank])).toEqual([
      ["q1", 1],
      ["q2", 2],
      ["q3", 0],
      ["q4", 0],
    ]);
    expect([off.questions, off.answerable, off.unanswerable]).toEqual([4, 3, 1]);
    // hit@1 = q1 of 3; hit@5 = q1, q2 of 3; MRR = (1 + 1/2 + 0) / 3.
    expect(off.search).toEqual({ hit1: 0.3333, hit5: 0.6667, hit10: 0.6667, mrr10: 0.5 });
    // With the corrective pass off, the final text is the search's text.
    expect(off.final).toMatchObject({ hit1: 0.3333, hit5: 0.6667, mrr10: 0.5, anywhere: 0.6667 });
    expect(off.perQuestion.every((q) => q.finalChars === q.originalChars)).toBe(true);
    expect(off.charsAddedOnUnanswerable).toEqual({ median: 0, p90: 0 });
    // Denominators: q1, q2 hold an answer in the top 5; q3 does not; q4 is the unanswerable one.
    expect(off.weak.falseAlarms.of).toBe(2);
    expect(off.weak.missesCaught.of).toBe(1);
    // No hit at all is weak, whatever the calibration.
    expect(off.weak.unanswerableFlagged).toEqual({ count: 1, of: 1, rate: 1 });
    expect(off.rescue).toMatchObject({ misses: 1, rescued: 0 });
    expect(off.modelCallsPer100).toBe(0);
    expect(off.subsets["vocab=lexical"]).toMatchObject({ questions: 1, searchHit5: 1 });
    expect(off.subsets["style=question"]).toMatchObject({ questions: 2, searchHit5: 0 });
    expect(off.subsets["kind=unanswerable"]).toMatchObject({ questions: 1, searchHit5: null });
  });

  it("runs each compared setting on the same questions, side by side", async () => {
    const report = await evalJson("--compare", "off,signal");
    expect(report.settings.map((s) => s.setting)).toEqual(["off", "signal"]);
    const [off, signal] = report.settings;
    expect(signal!.search).toEqual(off!.search);
    // The signal grader never removes what the search showed.
    for (const q of signal!.perQuestion) expect(q.finalChars).toBeGreaterThanOrEqual(q.originalChars);
  });

  it("prints a table a person can read", async () => {
    const run = await runCli(["eval", bot, "--questions", questions, "--compare", "off,signal"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/tinybot: 4 questions \(3 answerable, 1 unanswerable\), 3 documents/);
    expect(run.stdout).toMatch(/search hit@1 \/ @5 \/ @10\s+33\.3% \/ 66\.7% \/ 66\.7%/);
    expect(run.stdout).toMatch(/unanswerable flagged\s+100\.0% \(1\/1\)/);
  });

  it("names the file, line and key of a bad question", async () => {
    const bad = join(dir, "bad.jsonl");
    await writeFile(bad, `${JSON.stringify(lines[0])}\n{"id":"x","text":"t","kind":"answerable"}\n`);
    const run = await runCli(["eval", bot, "--questions", bad]);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain("bad.jsonl:2");
    expect(run.stderr).toContain('"relevant"');
  });

  it("refuses an unknown --compare setting, naming the valid ones", async () => {
    const run = await runCli(["eval", bot, "--questions", questions, "--compare", "off,sometimes"]);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/unknown setting "sometimes".*off, signal, haiku, auto/);
  });
});

describe("judged paths", () => {
  it("match a doc id as a whole path suffix", () => {
    expect(matchesJudgedPath("docs/library/pathlib.html", "library/pathlib.html")).toBe(true);
    expect(matchesJudgedPath("library/pathlib.html", "library/pathlib.html")).toBe(true);
    expect(matchesJudgedPath("docs/mylibrary/pathlib.html", "library/pathlib.html")).toBe(false);
    expect(firstAnswerRank(["a/x.md", "b/y.md", "c/z.md"], ["y.md", "z.md"])).toBe(2);
    expect(firstAnswerRank(["a/x.md"], ["y.md"])).toBe(0);
  });
});

describe("summarizeOutcomes on hand-made outcomes", () => {
  const o = (p: Partial<QuestionOutcome> & Pick<QuestionOutcome, "id">): QuestionOutcome => ({
    kind: "answerable",
    searchRank: 0,
    finalRank: 0,
    bestScore: 0,
    flagged: false,
    originalChars: 100,
    finalChars: 100,
    modelCalls: 0,
    ms: 1,
    ...p,
  });
  const outcomes = [
    o({ id: "a", searchRank: 1, finalRank: 1, bestScore: 0.9, ms: 2 }),
    o({ id: "b", searchRank: 3, finalRank: 3, bestScore: 0.5, flagged: true, modelCalls: 1, ms: 4 }),
    o({ id: "c", searchRank: 7, finalRank: 7, bestScore: 0.6, flagged: true, modelCalls: 1, ms: 6 }),
    o({ id: "d", searchRank: 0, finalRank: 11, bestScore: 0.3, flagged: true, finalChars: 400, ms: 8 }),
    o({ id: "e", kind: "unanswerable", bestScore: 0.2, flagged: true, finalChars: 150, ms: 10 }),
    o({ id: "f", kind: "unanswerable", bestScore: 0.7, finalChars: 100, ms: 12 }),
  ];
  const r = summarizeOutcomes(outcomes);

  it("ranks: hit@k and MRR@10 over the 4 answerable questions", () => {
    expect(r.search).toEqual({ hit1: 0.25, hit5: 0.5, hit10: 0.75, mrr10: 0.369 });
    // d's answer arrived at rank 11 of the final text: anywhere, not in the top 10.
    expect(r.final).toEqual({ hit1: 0.25, hit5: 0.5, hit10: 0.75, mrr10: 0.369, anywhere: 1 });
  });

  it("weak flag: false alarms, misses caught, unanswerable flagged and AUC", () => {
    expect(r.weak.falseAlarms).toEqual({ count: 1, of: 2, rate: 0.5 }); // a, b found; b flagged
    expect(r.weak.missesCaught).toEqual({ count: 2, of: 2, rate: 1 }); // c (rank 7), d
    expect(r.weak.unanswerableFlagged).toEqual({ count: 1, of: 2, rate: 0.5 });
    // Positives a (0.9), b (0.5); negatives c 0.6, d 0.3, e 0.2, f 0.7.
    // a beats all 4; b beats d and e: 6 of 8 pairs.
    expect(r.weak.auc).toBe(0.75);
  });

  it("rescue, sizes, model calls and latency", () => {
    expect(r.rescue).toEqual({ misses: 1, flagged: 1, rescued: 1, rate: 1 });
    // Added on unanswerable: e +50, f 0 → nearest-rank median 0, p90 50.
    expect(r.charsAddedOnUnanswerable).toEqual({ median: 0, p90: 50 });
    // Final sizes 100,100,100,400,150,100 → sorted 100×4,150,400: median 100, p90 400.
    expect(r.finalChars).toEqual({ median: 100, p90: 400 });
    expect(r.modelCallsPer100).toBe(33.3);
    expect(r.latencyMs).toEqual({ p50: 6, p95: 12 });
  });
});
