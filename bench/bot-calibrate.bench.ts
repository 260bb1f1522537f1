/**
 * `second-look calibrate` on the pydocs bot (../shared/data/pydocs, built by its build-bot.sh
 * like the documentation-bot suite), as a dry run: the weak flag's figures under the shipped
 * model, under a fit scored held-out (5 folds by question) and as fitted, and whether calibrate
 * would store the fit (only an improvement held-out). The README's calibrate table quotes this.
 */

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { loadBot } from "../src/bots/discovery.js";
import { calibrateBot, changesText } from "../src/evaluation/calibrate-bot.js";
import { readJudgedQuestions } from "../src/evaluation/judged-questions.js";
import { calibrationFile } from "../src/knowledge/bot-calibration.js";
import { dataDir, pydocsBotDir } from "./docbots/collections.js";

export const name = "bot-calibrate";
export const timeoutMs = 10 * 60_000;

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const dir = await pydocsBotDir();
  // Measured from the shipped model, whatever an earlier calibrate left in the cache folder.
  await rm(calibrationFile(dir), { force: true });
  const questionsFile = join(dataDir, "pydocs", "queries.jsonl");
  const report = await calibrateBot(
    await loadBot(dir, { quiet: true }),
    await readJudgedQuestions(questionsFile),
    {
      questionsFile,
      dryRun: true,
    },
  );
  const pct = (x: number | null | undefined) =>
    x === null || x === undefined ? "–" : `${(x * 100).toFixed(1)} %`;
  const columns = [report.before, report.afterHeldOut, report.afterFitted];
  const row = (label: string, cell: (f: NonNullable<(typeof columns)[number]>) => string) =>
    `| ${label} | ${columns.map((f) => (f ? cell(f) : "–")).join(" | ")} |`;
  const markdown = [
    `pydocs bot, ${report.questions} questions (${report.answerable} answerable, ${report.unanswerable} unanswerable), fitted on ${report.hits} hits (${report.relevantHits} judged relevant).`,
    "",
    "| figure | before (shipped model) | after, held-out | after, as fitted |",
    "| --- | --: | --: | --: |",
    row("false alarms", (f) => pct(f.falseAlarms)),
    row("misses caught", (f) => pct(f.missesCaught)),
    row("unanswerable flagged", (f) => pct(f.unanswerableFlagged)),
    row("AUC", (f) => (f.auc === null ? "–" : f.auc.toFixed(3))),
    "",
    report.comparison.improvement
      ? `calibrate would store the fit: ${changesText(report.comparison.better)}.`
      : `calibrate would not store the fit: ${report.comparison.reason}.`,
  ].join("\n");
  return {
    title: "calibrate on the pydocs bot (dry run)",
    figures: {
      questions: report.questions,
      before: report.before,
      afterHeldOut: report.afterHeldOut,
      afterFitted: report.afterFitted,
      comparison: report.comparison,
    },
    markdown,
  };
}
