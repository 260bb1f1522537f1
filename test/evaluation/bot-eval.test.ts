// `second-look eval <bot> --questions`: the figures on a tiny hand-made bot, computed by hand,
// and the metric arithmetic on hand-made outcomes.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QuestionOutcome, summarizeOutcomes } from "../../src/evaluation/bot-metrics.js";
import { checkGates, parseGates } from "../../src/evaluation/eval-gates.js";
import { hitAtK, reliabilityBins, rocPoints } from "../../src/evaluation/eval-report-html.js";
import type { BotEvalReport } from "../../src/evaluation/evaluate-bot.js";
import {
  firstAnswerRank,
  matchesJudgedPath,
  unmatchedJudgedPaths,
} from "../../src/evaluation/judged-questions.js";
import { chromiumPath, dumpDom, screenshot } from "../support/chromium.js";
import { freePort } from "../support/free-port.js";
import { type ModelServer, startModelServer } from "../support/model-server/model-server.js";
import { countColour, decodePng } from "../support/png.js";
import { runBotEval } from "../support/run-cli.js";

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

/** The tiny bot's pages under `name`, with `config` beside the knowledge block. */
async function tinyBot(name: string, config: object = {}): Promise<string> {
  const folder = join(dir, name);
  for (const [path, text] of Object.entries(pages)) {
    await mkdir(join(folder, path, ".."), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  await writeFile(
    join(folder, "config.json"),
    JSON.stringify({
      knowledge: { backend: "embedded", collections: { kb: { paths: ["docs/**/*.md"] } } },
      correctiveRetrieval: { enabled: true, grader: "signal" },
      ...config,
    }),
  );
  return folder;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "second-look-bot-eval-"));
  bot = await tinyBot("tinybot");
  questions = join(dir, "questions.jsonl");
  await writeFile(questions, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function evalJson(...extra: string[]): Promise<BotEvalReport> {
  const run = await runBotEval(bot, questions, "--json", ...extra);
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
    // q4 finds nothing, nor does its re-query: the model is told the documents do not cover it.
    // Off adds nothing, so it never says so.
    expect(signal!.perQuestion.filter((q) => q.toldNotCovered).map((q) => q.id)).toContain("q4");
    expect(signal!.toldNotCovered.unanswerable).toEqual({ count: 1, of: 1, rate: 1 });
    expect(off!.perQuestion.some((q) => q.toldNotCovered)).toBe(false);
    expect(off!.toldNotCovered.answerInTop5).toEqual({ count: 0, of: 2, rate: 0 });
  });

  it("prints a table a person can read", async () => {
    const run = await runBotEval(bot, questions, "--compare", "off,signal");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/tinybot: 4 questions \(3 answerable, 1 unanswerable\), 3 documents/);
    expect(run.stdout).toMatch(/search hit@1 \/ @5 \/ @10\s+33\.3% \/ 66\.7% \/ 66\.7%/);
    expect(run.stdout).toMatch(/unanswerable flagged\s+100\.0% \(1\/1\)/);
  });

  it("names the file, line and key of a bad question", async () => {
    const bad = join(dir, "bad.jsonl");
    await writeFile(bad, `${JSON.stringify(lines[0])}\n{"id":"x","text":"t","kind":"answerable"}\n`);
    const run = await runBotEval(bot, bad);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain("bad.jsonl:2");
    expect(run.stderr).toContain('"relevant"');
  });

  it("refuses an unknown --compare setting, naming the valid ones", async () => {
    const run = await runBotEval(bot, questions, "--compare", "off,sometimes");
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/unknown setting "sometimes".*off, signal, haiku, auto/);
  });
});

const KEY_ENV = "SECOND_LOOK_EVAL_GRADER_KEY";

/** A bot whose model grader talks OpenAI's protocol to `baseUrl` with a key from KEY_ENV. */
const graderBot = (name: string, baseUrl: string) =>
  tinyBot(name, { model: "scripted", provider: { type: "openai", baseUrl, apiKeyEnv: KEY_ENV } });

/** The stderr lines second-look itself wrote (the logger's JSON lines go to the process's stderr). */
const ownLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("second-look eval:"));

describe("eval never flatters a setting that did not run as configured", () => {
  beforeAll(() => {
    process.env[KEY_ENV] = "sk-eval-test";
  });
  afterAll(() => {
    delete process.env[KEY_ENV];
  });

  it("a model grader that is down: its calls are counted as failed, and eval exits 3 saying which setting and why in one line", async () => {
    const down = await graderBot("modeldown", `http://127.0.0.1:${await freePort()}/v1`);
    const run = await runBotEval(down, questions, "--compare", "off,signal,haiku", "--json");
    expect(run.exitCode).toBe(3);
    const report = JSON.parse(run.stdout) as BotEvalReport;
    const [off, signal, haiku] = report.settings;
    expect([off!.reliable, signal!.reliable]).toEqual([true, true]);
    expect(haiku!.reliable).toBe(false);
    // One grading call per question, every one of them failed; none is a verdict.
    expect(haiku!.grader).toEqual({ calls: 4, failed: 4 });
    expect(haiku!.perQuestion.map((q) => q.graderFailures)).toEqual([1, 1, 1, 1]);
    const said = ownLines(run.stderr);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^second-look eval: setting haiku did not run as configured: 4 of 4 model grader calls failed \(.+\); .*unreliable \(exit 3\)$/,
    );
    expect(said[0]).not.toMatch(/setting (off|signal)/);
  }, 60_000);

  it("the table marks the setting unreliable and shows its failed calls", async () => {
    const down = await graderBot("modeldown-text", `http://127.0.0.1:${await freePort()}/v1`);
    const run = await runBotEval(down, questions, "--compare", "signal,haiku");
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toMatch(/signal\s+haiku \(UNRELIABLE\)/);
    expect(run.stdout).toMatch(/model grader calls failed\s+0 of 0\s+4 of 4/);
    expect(run.stdout).toMatch(/haiku is UNRELIABLE: 4 of 4 model grader calls failed/);
  }, 60_000);

  it("a model grader that cannot be built (its key unset) is a setting that did not run, not a signal run", async () => {
    const keyless = await tinyBot("keyless", {
      model: "scripted",
      provider: { type: "openai", baseUrl: "http://127.0.0.1:9/v1", apiKeyEnv: "SECOND_LOOK_EVAL_UNSET_KEY" },
    });
    const run = await runBotEval(keyless, questions, "--compare", "haiku", "--json");
    expect(run.exitCode).toBe(3);
    const [haiku] = (JSON.parse(run.stdout) as BotEvalReport).settings;
    expect(haiku!.reliable).toBe(false);
    expect(haiku!.problem).toMatch(
      /grader "haiku" unavailable \(.*SECOND_LOOK_EVAL_UNSET_KEY.*\); the signal graded instead/,
    );
    expect(ownLines(run.stderr)).toHaveLength(1);
  });

  describe("with a model grader that answers", () => {
    let server: ModelServer | undefined;
    afterAll(async () => server?.close());

    it("every call counted, none failed: reliable, exit 0", async () => {
      server = await startModelServer({
        script: () => ({ kind: "text", text: '{"verdict":"correct","reason":"covered"}' }),
      });
      const up = await graderBot("modelup", server.openAiBaseUrl);
      const run = await runBotEval(up, questions, "--compare", "haiku", "--json");
      expect(ownLines(run.stderr)).toEqual([]);
      expect(run.exitCode).toBe(0);
      const [haiku] = (JSON.parse(run.stdout) as BotEvalReport).settings;
      expect(haiku).toMatchObject({ reliable: true, problem: null, grader: { calls: 4, failed: 0 } });
      expect(server.requests).toHaveLength(4);
    });

    it("a reply with no usable verdict is a failed call, not a 'correct'", async () => {
      const garbled = await startModelServer({
        script: () => ({ kind: "text", text: "I think it is fine." }),
      });
      try {
        const bad = await graderBot("modelgarbled", garbled.openAiBaseUrl);
        const run = await runBotEval(bad, questions, "--compare", "haiku", "--json");
        expect(run.exitCode).toBe(3);
        const [haiku] = (JSON.parse(run.stdout) as BotEvalReport).settings;
        expect(haiku!.grader).toEqual({ calls: 4, failed: 4 });
        expect(haiku!.problem).toMatch(/4 of 4 model grader calls failed \(grader output unparseable\)/);
      } finally {
        await garbled.close();
      }
    });
  });
});

describe("eval --fail-under: CI gates with their own exit code", () => {
  it("exits 4 naming each figure under its gate, and 0 when every gate holds", async () => {
    const below = await runBotEval(
      bot,
      questions,
      "--compare",
      "off,signal",
      "--fail-under",
      "hit5=0.9,unanswerableFlagged>=1,falseAlarms<=0.2",
      "--json",
    );
    expect(below.exitCode).toBe(4);
    expect(ownLines(below.stderr)).toEqual([
      "second-look eval: --fail-under: off hit5 0.6667 (needs ≥ 0.9); signal hit5 0.6667 (needs ≥ 0.9) (exit 4)",
    ]);
    const passes = await runBotEval(
      bot,
      questions,
      "--compare",
      "off",
      "--fail-under",
      "hit5=60%,mrr10>=0.5,unanswerableFlagged>=1",
    );
    expect(passes.exitCode).toBe(0);
  });

  it("refuses a gate it cannot read, naming the figures it knows", async () => {
    const run = await runBotEval(bot, questions, "--fail-under", "hit7=0.5");
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/--fail-under: unknown figure "hit7"; use hit1, hit5, /);
    expect(() => parseGates("hit5>0.5")).toThrow(/not name=value/);
  });

  it("a figure nothing was counted for fails its gate", () => {
    const gates = parseGates("missesCaught>=0.5,latencyP95<=100");
    const figures = summarizeOutcomes([]);
    expect(checkGates([{ setting: "off", ...figures }], gates).map((f) => [f.gate.figure, f.actual])).toEqual(
      [
        ["missesCaught", null],
        ["latencyP95", null],
      ],
    );
  });
});

describe("judged paths that match no document", () => {
  let typo: string;
  beforeAll(async () => {
    typo = join(dir, "typo.jsonl");
    await writeFile(
      typo,
      `${[
        lines[0],
        { id: "qt", text: "kettle", kind: "answerable", relevant: ["kitchen/kettel.md", "tea.md"] },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n")}\n`,
    );
  });

  it("stop the run, naming the question and the path", async () => {
    const run = await runBotEval(bot, typo);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^second-look eval: .*typo\.jsonl: question "qt": relevant path "kitchen\/kettel\.md" matches no document of bot "tinybot"; .*--lenient/,
    );
  });

  it("with --lenient: a warning naming them, the question scored as it stands", async () => {
    const run = await runBotEval(bot, typo, "--lenient", "--json");
    expect(run.exitCode).toBe(0);
    expect(ownLines(run.stderr)).toEqual([
      'second-look eval: warning: question "qt": relevant path "kitchen/kettel.md" matches no document (scored as a miss)',
    ]);
    const report = JSON.parse(run.stdout) as BotEvalReport;
    expect(report.unmatchedRelevant).toEqual([{ question: "qt", path: "kitchen/kettel.md" }]);
  });

  it("match as whole path suffixes, as the ranks do", () => {
    const ids = ["docs/kitchen/kettle.md", "docs/kitchen/tea.md"];
    const qs = [
      { id: "a", relevant: ["kettle.md", "./kitchen/tea.md", "chen/tea.md", "docs/kitchen/kettle.md"] },
    ];
    expect(unmatchedJudgedPaths(qs, ids)).toEqual([{ question: "a", path: "chen/tea.md" }]);
  });
});

describe("eval --json per-question rows", () => {
  it("carry the question text, the judged paths and the ids the search and the final text returned", async () => {
    const report = await evalJson("--compare", "signal");
    const q2 = report.settings[0]!.perQuestion.find((q) => q.id === "q2")!;
    expect(q2.text).toBe("kettle tea");
    expect(q2.relevant).toEqual(["tea.md"]);
    expect(q2.searchIds).toEqual(["docs/kitchen/kettle.md", "docs/kitchen/tea.md"]);
    expect(q2.searchRelevance).toHaveLength(2);
    expect(q2.finalIds.slice(0, 2)).toEqual(q2.searchIds);
  });
});

describe.skipIf(!chromiumPath)(
  "eval --report in a real headless browser (skipped when Debian's chromium is absent)",
  () => {
    let page: string;
    let dom: string;
    beforeAll(async () => {
      page = join(dir, "report.html");
      const run = await runBotEval(bot, questions, "--compare", "off,signal", "--report", page);
      expect(run.exitCode).toBe(0);
      dom = await dumpDom(page);
    }, 120_000);

    /** The markup of one chart's <svg> in the DOM the browser built. */
    const svg = (id: string) => new RegExp(`<svg[^>]*id="${id}"[\\s\\S]*?</svg>`).exec(dom)?.[0] ?? "";

    it("loads the page offline and builds its three charts as SVG", () => {
      expect(dom).toContain("<title>tinybot: evaluation on");
      // ROC: 2 positives and 2 negatives, four distinct scores: (0,0) + 4 points.
      expect(
        svg("roc")
          .match(/<polyline[^>]*class="series"[^>]*points="([^"]+)"/)?.[1]
          ?.split(" "),
      ).toHaveLength(5);
      expect(svg("reliability")).toMatch(/<circle /);
      // hit@k: the search and the final text of each of the two settings, 10 ranks each.
      const lines = [...svg("hit-at-k").matchAll(/<polyline[^>]*points="([^"]+)"/g)].map(
        (m) => m[1]!.split(" ").length,
      );
      expect(lines).toEqual([10, 10, 10]);
    });

    it("lists every question, misses first, with the pages each search returned", () => {
      const rows = [...dom.matchAll(/<tr(?: class="miss")?><td>([^<]+)<br>/g)].map((m) => m[1]);
      // q3 is the one answerable question whose search shows no answering page.
      expect(rows).toEqual(["bicycle tyres", "quantum chromodynamics", "descale kettle", "kettle tea"]);
      expect(dom).toMatch(/<li class="answer">docs\/kitchen\/tea\.md<\/li>/);
    });

    it("paints the charts: each series' colour covers a line's worth of pixels in a screenshot", async () => {
      const image = decodePng(await screenshot(page, 1400, 1400));
      for (const id of ["roc", "reliability", "hit-at-k"]) {
        const colour = /<polyline[^>]*stroke="(#[0-9A-Fa-f]{6})"/.exec(svg(id))?.[1];
        expect(colour, id).toMatch(/^#/);
        // A 2.5 px line across a few hundred pixels of chart, far more than its legend swatch.
        expect(countColour(image, colour!), id).toBeGreaterThan(150);
      }
    }, 120_000);
  },
);

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
    text: `question ${p.id}`,
    kind: "answerable",
    relevant: [],
    searchRank: 0,
    finalRank: 0,
    searchIds: [],
    searchRelevance: [],
    finalIds: [],
    graderFailures: 0,
    bestScore: 0,
    flagged: false,
    toldNotCovered: false,
    originalChars: 100,
    finalChars: 100,
    modelCalls: 0,
    ms: 1,
    ...p,
  });
  const outcomes = [
    o({ id: "a", searchRank: 1, finalRank: 1, bestScore: 0.9, ms: 2 }),
    o({
      id: "b",
      searchRank: 3,
      finalRank: 3,
      bestScore: 0.5,
      flagged: true,
      toldNotCovered: true,
      modelCalls: 1,
      ms: 4,
    }),
    o({
      id: "c",
      searchRank: 7,
      finalRank: 7,
      bestScore: 0.6,
      flagged: true,
      toldNotCovered: true,
      modelCalls: 1,
      ms: 6,
    }),
    o({ id: "d", searchRank: 0, finalRank: 11, bestScore: 0.3, flagged: true, finalChars: 400, ms: 8 }),
    o({
      id: "e",
      kind: "unanswerable",
      bestScore: 0.2,
      flagged: true,
      toldNotCovered: true,
      finalChars: 150,
      ms: 10,
    }),
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

  it("told not covered: wrongly when the top 5 holds an answer, rightly on unanswerable questions", () => {
    // b (rank 3) was told so wrongly; c (rank 7) is no answer in the top 5, so not counted.
    expect(r.toldNotCovered.answerInTop5).toEqual({ count: 1, of: 2, rate: 0.5 });
    expect(r.toldNotCovered.unanswerable).toEqual({ count: 1, of: 2, rate: 0.5 });
  });

  it("the report's ROC of bestScore: one point per distinct score, positives = answer in the top 5", () => {
    // By score: a .9 (+), f .7, c .6, b .5 (+), d .3, e .2; 2 positives, 4 negatives.
    expect(rocPoints(outcomes)).toEqual([
      [0, 0],
      [0, 0.5],
      [0.25, 0.5],
      [0.5, 0.5],
      [0.5, 1],
      [0.75, 1],
      [1, 1],
    ]);
  });

  it("the report's hit@k over the answerable questions, and its reliability bins over every hit", () => {
    // Answerable ranks 1, 3, 7, 0.
    expect(hitAtK(outcomes, (x) => x.searchRank).filter(([k]) => [1, 2, 3, 7, 10].includes(k))).toEqual([
      [1, 0.25],
      [2, 0.25],
      [3, 0.5],
      [7, 0.75],
      [10, 0.75],
    ]);
    const judged = [
      o({ id: "r1", relevant: ["a.md"], searchIds: ["x/a.md", "x/b.md"], searchRelevance: [0.82, 0.86] }),
      o({ id: "r2", relevant: ["c.md"], searchIds: ["x/b.md", "x/c.md"], searchRelevance: [0.15, 0.05] }),
    ];
    expect(reliabilityBins(judged)).toEqual([
      { meanRelevance: 0.05, observed: 1, hits: 1 },
      { meanRelevance: 0.15, observed: 0, hits: 1 },
      { meanRelevance: 0.84, observed: 0.5, hits: 2 },
    ]);
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
