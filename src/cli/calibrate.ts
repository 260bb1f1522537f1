// `second-look calibrate <bot> --questions <file.jsonl> [--dry-run] [--force] [--json]`: refit the
// bot's relevance calibration on its own judged questions; stored in
// <bot>/.second-look/calibration.json (a postgres bot's in its database) and used by the bot's
// engine from then on — only when, held-out, it is an improvement on the model the bot uses now
// (or with --force, saying what gets worse).

import { resolveBot } from "../bots/bot-resolver.js";
import {
  type BotCalibrationReport,
  CalibrationDataError,
  calibrateBot,
  changesText,
  type WeakFigures,
} from "../evaluation/calibrate-bot.js";
import { JudgedQuestionsError, readJudgedQuestions } from "../evaluation/judged-questions.js";
import { BotCalibrationError } from "../knowledge/bot-calibration.js";
import { CliError } from "./cli-error.js";
import { progressReporter } from "./progress.js";
import { percent, tableLines } from "./text-table.js";

export interface CalibrateOptions {
  questions?: string;
  dryRun: boolean;
  /** Store the fit even when it is not an improvement (the report says what gets worse). */
  force?: boolean;
  json: boolean;
}

/**
 * Exit codes (docs/evaluation.md "calibrate"): 0 the fit was stored, or `--dry-run`; 1 the run failed; 3 the
 * fit was not stored because, held-out, it is no improvement on the bot's current model.
 */
export const CALIBRATE_EXIT = { ok: 0, error: 1, notStored: 3 } as const;

export async function runCalibrate(
  botRef: string,
  options: CalibrateOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  if (options.questions === undefined)
    throw new CliError("give --questions <file.jsonl> (docs/evaluation.md)");
  let questions: Awaited<ReturnType<typeof readJudgedQuestions>>;
  try {
    questions = await readJudgedQuestions(options.questions);
  } catch (error) {
    if (error instanceof JudgedQuestionsError) throw new CliError(error.message);
    throw error;
  }
  if (!questions.length) throw new CliError(`${options.questions}: no questions`);
  const bot = await resolveBot(botRef, { quiet: options.json });
  const indexing = progressReporter(!options.json);
  let report: BotCalibrationReport;
  try {
    report = await calibrateBot(bot, questions, {
      questionsFile: options.questions,
      dryRun: options.dryRun,
      force: options.force === true,
      onIndexProgress: indexing.update,
    });
  } catch (error) {
    if (error instanceof CalibrationDataError || error instanceof BotCalibrationError) {
      throw new CliError(error.message);
    }
    throw error;
  } finally {
    indexing.stop();
  }
  io.stdout.write(options.json ? `${JSON.stringify(report)}\n` : calibrationText(report));
  if (!options.dryRun && report.storedIn === null) {
    io.stderr.write(
      `second-look calibrate: not stored: ${report.comparison.reason}; the bot keeps its current model (--force stores it anyway)\n`,
    );
    return CALIBRATE_EXIT.notStored;
  }
  if (report.forced) {
    io.stderr.write(
      `second-look calibrate: stored with --force although ${report.comparison.reason?.replace(/^held-out, /, "held-out ")}\n`,
    );
  }
  return CALIBRATE_EXIT.ok;
}

const auc = (x: number | null) => (x === null ? "–" : x.toFixed(3));

export function calibrationText(r: BotCalibrationReport): string {
  const columns: [string, WeakFigures | null][] = [
    [`before (${r.previous === "bot" ? "bot's earlier fit" : "shipped model"})`, r.before],
    ["after, held-out", r.afterHeldOut],
    ["after, as fitted", r.afterFitted],
  ];
  const rows: [string, (f: WeakFigures) => string][] = [
    ["false alarms (flagged, answer in top 5)", (f) => percent(f.falseAlarms)],
    ["misses caught (flagged, no answer in top 5)", (f) => percent(f.missesCaught)],
    ["unanswerable flagged", (f) => percent(f.unanswerableFlagged)],
    ["AUC of bestScore for answer in top 5", (f) => auc(f.auc)],
  ];
  const header = ["", ...columns.map(([label]) => label)];
  const body = rows.map(([label, cell]) => [label, ...columns.map(([, f]) => (f ? cell(f) : "–"))]);
  return [
    `${r.bot}: ${r.questions} questions (${r.answerable} answerable, ${r.unanswerable} unanswerable), ` +
      `fitted on ${r.hits} hits (${r.relevantHits} judged relevant)`,
    "",
    ...tableLines(header, body),
    "",
    r.afterHeldOut === null ? "(held-out figures need at least 10 questions)" : "",
    r.comparison.improvement
      ? `held-out, the new fit is an improvement: ${changesText(r.comparison.better)}`
      : `not an improvement: ${r.comparison.reason}`,
    r.forced
      ? `stored with --force: what gets worse: ${changesText(r.comparison.worse) || "nothing better"}`
      : "",
    r.storedIn === null
      ? r.comparison.improvement
        ? "dry run: nothing stored"
        : "nothing stored: the bot keeps its current model (--force stores the new fit anyway)"
      : r.file !== null
        ? `stored in ${r.file}; the bot's engine uses it from its next start (delete the file to go back to the shipped model)`
        : `stored in ${r.storedIn}; every process serving the bot uses it from its next search (delete the row to go back to the shipped model)`,
    "",
  ]
    .filter((l, i, all) => l !== "" || all[i - 1] !== "")
    .join("\n");
}
