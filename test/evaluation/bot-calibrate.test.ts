// `second-look calibrate <bot> --questions`: a tiny hand-made bot refits its relevance
// calibration; the fit is stored with its index and used by its engine from then on — only when,
// held-out, it improves on the model the bot uses now, or with --force, saying what gets worse.
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedEngine } from "../../src/backends/embedded/open-embedded.js";
import { type BotCalibrationReport, compareFits } from "../../src/evaluation/calibrate-bot.js";
import { calibrationFile, storedCalibrationSchema } from "../../src/knowledge/bot-calibration.js";
import { DEFAULT_CALIBRATION } from "../../src/knowledge/relevance.js";
import { FEATURE_NAMES } from "../../src/knowledge/relevance-features.js";
import { runCli } from "../support/run-cli.js";

// Twelve pages, each with its own topic word and the shared word "guide": every question below
// names "guide", so all twelve pages match and each search's top 10 holds one page judged
// relevant (the topic's) and nine that are not.
const TOPICS = [
  "kettle",
  "bicycle",
  "violin",
  "compost",
  "telescope",
  "sourdough",
  "kayak",
  "origami",
  "beekeeping",
  "pottery",
  "chess",
  "juggling",
];
const COLLECTIONS = { kb: { paths: ["docs/**/*.md"] } };

let dir: string;
let bot: string;
let questions: string;

async function writeQuestions(file: string, lines: object[]) {
  await writeFile(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "second-look-calibrate-"));
  bot = join(dir, "tinybot");
  await mkdir(join(bot, "docs"), { recursive: true });
  for (const topic of TOPICS) {
    await writeFile(
      join(bot, "docs", `${topic}.md`),
      `# ${topic}\n\nA short guide to the ${topic}: care for the ${topic} and enjoy the ${topic} every day.\n`,
    );
  }
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({ knowledge: { backend: "embedded", collections: COLLECTIONS } }),
  );
  questions = join(dir, "questions.jsonl");
  await writeQuestions(questions, [
    ...TOPICS.map((topic, i) => ({
      id: `a${i}`,
      text: `guide ${topic}`,
      kind: "answerable",
      relevant: [`${topic}.md`],
    })),
    ...["submarine", "volcano", "harpsichord"].map((word, i) => ({
      id: `u${i}`,
      text: `guide ${word}`,
      kind: "unanswerable",
    })),
  ]);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function calibrate(...extra: string[]): Promise<BotCalibrationReport> {
  const run = await runCli(["calibrate", bot, "--questions", questions, "--json", ...extra]);
  expect(run.stderr).toBe("");
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout) as BotCalibrationReport;
}

describe("calibrate <bot> --questions on a tiny hand-made bot", () => {
  it("with --dry-run measures and fits but stores nothing", async () => {
    const report = await calibrate("--dry-run");
    expect(report.file).toBeNull();
    expect(existsSync(calibrationFile(bot))).toBe(false);
    expect(report.previous).toBe("shipped");
  });

  it("counts the questions and the judged hits it fitted on", async () => {
    const report = await calibrate("--dry-run");
    expect([report.questions, report.answerable, report.unanswerable]).toEqual([15, 12, 3]);
    // Every question matches all twelve pages on "guide": ten hits each; one relevant per
    // answerable question (its topic's page ranks first).
    expect(report.hits).toBe(150);
    expect(report.relevantHits).toBe(12);
    // Before and after are measured on all fifteen searches, held-out too (15 ≥ 2 folds' worth).
    for (const figures of [report.before, report.afterHeldOut!, report.afterFitted]) {
      expect(figures.searches).toBe(15);
    }
    expect(report.model.features).toEqual([...FEATURE_NAMES]);
  });

  it("does not store a fit that is no better than the shipped model: exit 3, one line saying why", async () => {
    // On these questions the shipped model is already right everywhere (no false alarm, every
    // unanswerable question flagged): a new fit cannot improve on it.
    const run = await runCli(["calibrate", bot, "--questions", questions, "--json"]);
    expect(run.exitCode).toBe(3);
    const report = JSON.parse(run.stdout) as BotCalibrationReport;
    expect(report.before).toMatchObject({ falseAlarms: 0, unanswerableFlagged: 1 });
    expect(report.comparison).toMatchObject({ improvement: false, worse: [] });
    expect([report.storedIn, report.file, report.forced]).toEqual([null, null, false]);
    expect(existsSync(calibrationFile(bot))).toBe(false);
    expect(run.stderr).toBe(
      "second-look calibrate: not stored: held-out, the new fit is no better on false alarms, misses caught or unanswerable flagged; the bot keeps its current model (--force stores it anyway)\n",
    );
  });

  it("stores a fit that improves on the bot's current model, saying what got better", async () => {
    // A current model that calls every hit irrelevant: every search is flagged, answered or not.
    const flagsAll = join(dir, "flagsall");
    await mkdir(join(flagsAll, ".second-look"), { recursive: true });
    await cp(join(bot, "docs"), join(flagsAll, "docs"), { recursive: true });
    await cp(join(bot, "config.json"), join(flagsAll, "config.json"));
    await writeFile(
      calibrationFile(flagsAll),
      JSON.stringify({ version: 1, model: { features: ["rank"], weights: [0], bias: -8 } }),
    );
    const run = await runCli(["calibrate", flagsAll, "--questions", questions]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/held-out, the new fit is an improvement: false alarms 100\.0% → 0\.0%/);
    const stored = storedCalibrationSchema.parse(
      JSON.parse(await readFile(calibrationFile(flagsAll), "utf8")),
    );
    expect(stored.model.features).toEqual([...FEATURE_NAMES]);
  });

  it("never stores a fit with more false alarms, fewer misses caught or fewer unanswerable flagged", () => {
    const figures = (falseAlarms: number, missesCaught: number, unanswerableFlagged: number) => ({
      searches: 10,
      falseAlarms,
      missesCaught,
      unanswerableFlagged,
      auc: 0.8,
    });
    const current = figures(0.2, 0.5, 0.8);
    expect(compareFits(current, figures(0.1, 0.5, 0.8)).improvement).toBe(true);
    expect(compareFits(current, figures(0.2, 0.6, 0.8)).improvement).toBe(true);
    for (const worse of [figures(0.3, 0.9, 1), figures(0.1, 0.4, 0.8), figures(0.1, 0.5, 0.7)]) {
      expect(compareFits(current, worse).improvement).toBe(false);
    }
    expect(compareFits(current, figures(0.3, 0.5, 0.8)).reason).toBe(
      "held-out, the new fit is worse: false alarms 20.0% → 30.0%",
    );
    expect(compareFits(current, null)).toMatchObject({
      improvement: false,
      reason: expect.stringMatching(/at least 10 questions/),
    });
  });

  it("with --force stores the fit with the bot's index, and the bot's engine uses it from then on", async () => {
    const run = await runCli(["calibrate", bot, "--questions", questions, "--json", "--force"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toMatch(
      /^second-look calibrate: stored with --force although held-out the new fit is no better/,
    );
    const report = JSON.parse(run.stdout) as BotCalibrationReport;
    expect(report.forced).toBe(true);
    expect(report.file).toBe(calibrationFile(bot));
    const stored = storedCalibrationSchema.parse(JSON.parse(await readFile(report.file!, "utf8")));
    expect(stored.model).toEqual(report.model);
    expect(stored.fittedOn?.count).toBe(15);

    const { engine } = await openEmbeddedEngine(bot, COLLECTIONS);
    expect(engine.calibrationModel).toEqual(report.model);
    engine.useCalibration(DEFAULT_CALIBRATION);
    const shipped = engine.searchSync({ query: "guide kettle" }).results.map((h) => h.relevance);
    engine.useCalibration(report.model);
    const own = engine.searchSync({ query: "guide kettle" }).results.map((h) => h.relevance);
    expect(own).not.toEqual(shipped);

    // A second run starts from the bot's own fit.
    expect((await calibrate("--dry-run")).previous).toBe("bot");
  });

  it("stops a broken calibration file with a message naming the file and the key", async () => {
    const other = join(dir, "brokenbot");
    await mkdir(join(other, ".second-look"), { recursive: true });
    await writeFile(
      calibrationFile(other),
      JSON.stringify({ version: 1, model: { features: ["shoeSize"], weights: [1], bias: 0 } }),
    );
    await expect(openEmbeddedEngine(other, COLLECTIONS)).rejects.toThrow(
      /calibration\.json: model\.features\.0 .*delete the file/,
    );
    await writeFile(
      calibrationFile(other),
      JSON.stringify({ version: 1, model: { features: ["rank"], weights: [1, 2], bias: 0 } }),
    );
    await expect(openEmbeddedEngine(other, COLLECTIONS)).rejects.toThrow(
      /model\.weights has 2 weights for 1 features/,
    );
  });

  it("refuses too few judged hits, naming the file and what is missing", async () => {
    const few = join(dir, "few.jsonl");
    await writeQuestions(few, [
      { id: "a", text: "guide kettle", kind: "answerable", relevant: ["kettle.md"] },
    ]);
    const run = await runCli(["calibrate", bot, "--questions", few]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /^second-look calibrate: .*few\.jsonl: .* 1 judged-relevant .* at least 5 of each/,
    );
  });

  it("refuses a bot on a backend it cannot refit", async () => {
    const remote = join(dir, "remotebot");
    await mkdir(remote, { recursive: true });
    await writeFile(
      join(remote, "config.json"),
      JSON.stringify({
        knowledge: { backend: "huginn", huginn: { url: "http://127.0.0.1:9", collections: ["kb"] } },
      }),
    );
    const run = await runCli(["calibrate", remote, "--questions", questions]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /huginn backend, which ranks on its server; calibrate refits the embedded and postgres backends' relevance/,
    );
  });
});
