// `second-look calibrate <bot> --questions <file.jsonl> [--dry-run] [--json]`: refit the bot's
// relevance calibration on its own judged questions; stored in <bot>/.second-look/calibration.json
// (a postgres bot's in its database) and used by the bot's engine from then on.

import { loadBot } from "../bots/discovery.js";
import {
  type BotCalibrationReport,
  CalibrationDataError,
  calibrateBot,
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
  json: boolean;
}

export async function runCalibrate(
  botRef: string,
  options: CalibrateOptions,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  if (options.questions === undefined)
    throw new CliError("give --questions <file.jsonl> (README: calibrate)");
  let questions: Awaited<ReturnType<typeof readJudgedQuestions>>;
  try {
    questions = await readJudgedQuestions(options.questions);
  } catch (error) {
    if (error instanceof JudgedQuestionsError) throw new CliError(error.message);
    throw error;
  }
  if (!questions.length) throw new CliError(`${options.questions}: no questions`);
  const bot = await loadBot(botRef, { quiet: options.json });
  const indexing = progressReporter(!options.json);
  let report: BotCalibrationReport;
  try {
    report = await calibrateBot(bot, questions, {
      questionsFile: options.questions,
      dryRun: options.dryRun,
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
  return 0;
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
    r.storedIn === null
      ? "dry run: nothing stored"
      : r.file !== null
        ? `stored in ${r.file}; the bot's engine uses it from its next start (delete the file to go back to the shipped model)`
        : `stored in ${r.storedIn}; every process serving the bot uses it from its next search (delete the row to go back to the shipped model)`,
    "",
  ]
    .filter((l, i, all) => l !== "" || all[i - 1] !== "")
    .join("\n");
}
