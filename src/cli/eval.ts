// `second-look eval <bot> --questions <file.jsonl> [--compare off,signal,...] [--json]
// [--fail-under …] [--report report.html] [--lenient]`: a bot judged as it runs on its users'
// questions (several files, a list or a glob: each judged and reported on its own, then side by
// side). `second-look eval <dir> --format cranfield|beir`: the engine on a classic judged collection.

import { writeFile } from "node:fs/promises";
import { resolveBot } from "../bots/bot-resolver.js";
import { readBeir } from "../evaluation/beir.js";
import { num, ofShare, settingHeading, summaryRows } from "../evaluation/bot-report-rows.js";
import { readCranfield } from "../evaluation/cranfield.js";
import { checkGates, type Gate, gateFailuresLine, parseGates } from "../evaluation/eval-gates.js";
import { evalReportHtml } from "../evaluation/eval-report-html.js";
import {
  type BotEvalReport,
  CORRECTIVE_SETTINGS,
  type CorrectiveSetting,
  evaluateBot,
} from "../evaluation/evaluate-bot.js";
import { JudgedQuestionsError, readJudgedQuestions } from "../evaluation/judged-questions.js";
import { type EvaluationReport, runEvaluation } from "../evaluation/run-evaluation.js";
import { CliError } from "./cli-error.js";
import { progressReporter } from "./progress.js";
import { questionFileLabels, questionFiles } from "./question-files.js";
import { percent, tableLines } from "./text-table.js";

const FORMATS = ["cranfield", "beir"] as const;

/**
 * `eval <bot> --questions` exit codes (docs/evaluation.md "Judging a bot"): 0 every setting ran as configured
 * and every gate passed; 1 the run itself failed (bad arguments, questions file, bot); 3 a setting
 * did not run as configured (its model grader unavailable or some of its calls failed), whatever
 * the gates say; 4 every setting ran, and a `--fail-under` gate failed.
 */
export const EVAL_EXIT = { ok: 0, error: 1, settingFailed: 3, belowGate: 4 } as const;

/** Warnings listed one a line for `--lenient`; the rest are counted. */
const UNMATCHED_LISTED = 20;

export interface EvalOptions {
  questions?: string;
  compare?: string;
  format?: string;
  failUnder?: string;
  report?: string;
  lenient?: boolean;
  json: boolean;
}

export async function runEval(
  target: string,
  options: EvalOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  if (options.questions !== undefined) {
    if (options.format !== undefined)
      throw new CliError("--questions judges a bot; --format a collection: give one");
    return runBotEval(target, options.questions, options, io);
  }
  for (const [flag, value] of [
    ["--compare", options.compare],
    ["--fail-under", options.failUnder],
    ["--report", options.report],
    ["--lenient", options.lenient || undefined],
  ] as const) {
    if (value !== undefined) throw new CliError(`${flag} needs --questions <file.jsonl>`);
  }
  if (options.format === undefined) {
    throw new CliError(
      "give --questions <file.jsonl> to judge a bot, or --format cranfield|beir to judge a collection folder",
    );
  }
  return runCollectionEval(target, options.format, options.json, io);
}

export function parseSettings(value: string | undefined): CorrectiveSetting[] {
  if (value === undefined) return ["bot"];
  const names = value
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!names.length) throw new CliError(`--compare is empty; use some of ${CORRECTIVE_SETTINGS.join(", ")}`);
  for (const name of names) {
    if (!(CORRECTIVE_SETTINGS as readonly string[]).includes(name)) {
      throw new CliError(`--compare: unknown setting "${name}"; use ${CORRECTIVE_SETTINGS.join(", ")}`);
    }
  }
  return [...new Set(names)] as CorrectiveSetting[];
}

async function runBotEval(
  botRef: string,
  questionsValue: string,
  options: EvalOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const settings = parseSettings(options.compare);
  const gates: Gate[] = options.failUnder === undefined ? [] : parseGates(options.failUnder);
  const files = await questionFiles(questionsValue);
  if (options.report !== undefined && files.length > 1) {
    throw new CliError(`--report writes one questions file's report; ${files.length} files were given`);
  }
  // Every file is read before the bot is opened: a bad line fails the run before minutes of indexing.
  const questionSets: Awaited<ReturnType<typeof readJudgedQuestions>>[] = [];
  for (const questionsFile of files) {
    try {
      questionSets.push(await readJudgedQuestions(questionsFile));
    } catch (error) {
      if (error instanceof JudgedQuestionsError) throw new CliError(error.message);
      throw error;
    }
    if (!questionSets.at(-1)!.length) throw new CliError(`${questionsFile}: no questions`);
  }
  const bot = await resolveBot(botRef, { quiet: options.json });
  const labels = questionFileLabels(files);
  const reports: LabelledReport[] = [];
  for (const [i, questionsFile] of files.entries()) {
    const indexing = progressReporter(!options.json);
    const asking = questionProgress(!options.json);
    try {
      const report = await evaluateBot(bot, questionSets[i]!, {
        settings,
        questionsFile,
        lenient: options.lenient === true,
        onIndexProgress: indexing.update,
        onProgress: (e) => {
          indexing.stop();
          asking.update(e);
        },
      });
      reports.push({ label: labels[i]!, ...report });
    } finally {
      indexing.stop();
      asking.stop();
    }
  }
  for (const report of reports) warnUnmatched(report, io.stderr);
  if (reports.length === 1) {
    const report = reports[0]!;
    io.stdout.write(options.json ? `${JSON.stringify(withoutLabel(report))}\n` : botReportText(report));
    if (options.report !== undefined) {
      await writeFile(options.report, evalReportHtml(withoutLabel(report), new Date().toISOString()));
      if (!options.json) io.stdout.write(`report written to ${options.report}\n`);
    }
  } else {
    io.stdout.write(
      options.json
        ? `${JSON.stringify({ bot: bot.name, reports })}\n`
        : [
            ...reports.map((r) => `## ${r.label} (${r.questionsFile})\n\n${botReportText(r)}`),
            perFileText(reports),
          ].join("\n"),
    );
  }
  const failed = reports.flatMap((report) =>
    report.settings
      .filter((s) => !s.reliable)
      .map((s) => ({ s, label: reports.length > 1 ? `${report.label}: ` : "" })),
  );
  if (failed.length) {
    io.stderr.write(
      `second-look eval: ${failed.map(({ s, label }) => `${label}setting ${s.setting} did not run as configured: ${s.problem}`).join("; ")}; ${failed.length > 1 ? "their" : "its"} figures are unreliable (exit ${EVAL_EXIT.settingFailed})\n`,
    );
    return EVAL_EXIT.settingFailed;
  }
  const below = reports.flatMap((report) => checkGates(report.settings, gates));
  if (below.length) {
    io.stderr.write(
      `second-look eval: --fail-under: ${gateFailuresLine(below)} (exit ${EVAL_EXIT.belowGate})\n`,
    );
    return EVAL_EXIT.belowGate;
  }
  return EVAL_EXIT.ok;
}

/** A `relevant` path that matches no document is scored as a miss; with --lenient it is only warned of. */
function warnUnmatched(report: BotEvalReport, stderr: NodeJS.WritableStream): void {
  const unmatched = report.unmatchedRelevant;
  for (const u of unmatched.slice(0, UNMATCHED_LISTED)) {
    stderr.write(
      `second-look eval: warning: question "${u.question}": relevant path "${u.path}" matches no document (scored as a miss)\n`,
    );
  }
  if (unmatched.length > UNMATCHED_LISTED) {
    stderr.write(`second-look eval: warning: … and ${unmatched.length - UNMATCHED_LISTED} more such paths\n`);
  }
}

/** One questions file's report with the label it is shown under (several files: `{bot, reports}`). */
type LabelledReport = BotEvalReport & { label: string };

function withoutLabel({ label: _label, ...report }: LabelledReport): BotEvalReport {
  return report;
}

/** Several questions files (one per language, say): their main figures side by side, one row per file and setting. */
export function perFileText(reports: readonly LabelledReport[]): string {
  const header = [
    "questions",
    "setting",
    "search hit@1 / @5 / @10",
    "MRR@10",
    "final hit@5",
    "false alarms",
    "misses caught",
    "unanswerable flagged",
    "AUC",
    "rescued",
  ];
  const body = reports.flatMap((report) =>
    report.settings.map((r) => [
      report.label,
      r.setting,
      `${percent(r.search.hit1)} / ${percent(r.search.hit5)} / ${percent(r.search.hit10)}`,
      num(r.search.mrr10),
      percent(r.final.hit5),
      ofShare(r.weak.falseAlarms),
      ofShare(r.weak.missesCaught),
      ofShare(r.weak.unanswerableFlagged),
      num(r.weak.auc),
      `${r.rescue.rescued}/${r.rescue.misses}`,
    ]),
  );
  return ["per questions file", "", ...tableLines(header, body), ""].join("\n");
}

/** One bar per compared setting; a question can take seconds with a model grader, so always drawn. */
function questionProgress(enabled: boolean) {
  const bar = progressReporter(enabled, process.stderr, { verb: "asking", unit: "questions", minTotal: 1 });
  return {
    update: (e: { collection: string; done: number; total: number }) =>
      bar.update({ collection: `(${e.collection})`, done: e.done, total: e.total }),
    stop: () => bar.stop(),
  };
}

/** A table: one row per figure, one column per compared setting (an unreliable one marked). */
export function botReportText(report: BotEvalReport): string {
  const columns = report.settings;
  const first = columns[0]!;
  const header = ["", ...columns.map(settingHeading)];
  const body = summaryRows(first).map(({ label, cell }) => [label, ...columns.map((c) => cell(c))]);
  const notes = columns.filter((c) => !c.reliable).map((c) => `${c.setting} is UNRELIABLE: ${c.problem}`);
  const kept = report.autoKeepsHaiku;
  if (kept) {
    notes.unshift(
      `haiku rescues kept by auto: ${kept.autoKept} of ${kept.haikuRescued}, at ${num(kept.autoCallsPer100)} model calls per 100 searches`,
    );
  }
  return [
    `${report.bot}: ${first.questions} questions (${first.answerable} answerable, ${first.unanswerable} unanswerable)` +
      `${report.documents === null ? "" : `, ${report.documents} documents`}, index ready in ${report.indexMs} ms`,
    "",
    ...tableLines(header, body),
    "",
    ...(notes.length ? [...notes, ""] : []),
  ].join("\n");
}

async function runCollectionEval(
  dir: string,
  format: string,
  json: boolean,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new CliError(`--format must be one of ${FORMATS.join(", ")}, got "${format}"`);
  }
  const dataset = format === "cranfield" ? await readCranfield(dir) : await readBeir(dir);
  if (!dataset.queries.length) throw new CliError(`${dir}: no judged queries`);
  const progress = progressReporter(!json);
  const report = runEvaluation(dataset, { onProgress: progress.update });
  progress.stop();
  io.stdout.write(json ? `${JSON.stringify(report)}\n` : collectionReportText(dataset.name, report));
  return 0;
}

export function collectionReportText(name: string, r: EvaluationReport): string {
  const hint = r.corrective;
  return [
    `${name}: ${r.docs} documents, ${r.queries} judged queries, indexed in ${r.indexMs} ms`,
    `nDCG@10 ${r.ndcg10.toFixed(3)} · MAP@100 ${r.map100.toFixed(3)} · R@100 ${r.recall100.toFixed(3)} · miss@10 ${percent(r.miss10)}`,
    `first pass (no rerank): nDCG@10 ${r.firstPass.ndcg10.toFixed(3)} · MAP@100 ${r.firstPass.map100.toFixed(3)}`,
    `query ms p50 ${r.queryMs.p50} · p95 ${r.queryMs.p95} · p99 ${r.queryMs.p99}`,
    `bands: ${(["high", "medium", "low"] as const).map((b) => `${b} ${r.bands[b].hits} hits, ${percent(r.bands[b].precision)} relevant`).join(" · ")}`,
    `weak: ${r.weak.flagged} flagged · AUC ${Number.isFinite(r.weak.auc) ? r.weak.auc.toFixed(3) : "n/a (no query or every query in one class)"} · precision ${percent(r.weak.precision)} · recall ${percent(r.weak.recall)}`,
    `corrective: ${hint.requeried} re-queried, ${hint.rescued} rescued · recall ${hint.recallBefore.toFixed(3)} → ${hint.recallAfter.toFixed(3)}`,
    `grader calls per 100 searches: haiku ${r.grader.haikuCallsPer100} · auto ${r.grader.autoCallsPer100}`,
    "",
  ].join("\n");
}
