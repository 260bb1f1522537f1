// A bot judged as it runs: its loaders and index (openBotBackend), its search tool as assembled
// (rendering, strategies, corrective pass and grader settings), one process, on judged
// questions. Each corrective setting gets its own assembled bot over the same opened backend.
import type { BotDefinition } from "../bots/discovery.js";
import { assembleBot } from "../connectors/assemble-bot.js";
import { openBotBackend } from "../connectors/open-bot-backend.js";
import { correctCall, modelText, searchCall } from "../connectors/search-pipeline.js";
import { CORRECTIVE_ENV } from "../corrective/corrective-config.js";
import { REASON_GRADER_UNAVAILABLE, REASON_GRADER_UNPARSEABLE } from "../corrective/llm-grade.js";
import { DEADLINES } from "../deadline.js";
import { errorMessage } from "../errors.js";
import { parseDocIdLine } from "../knowledge-tool/result-text.js";
import { fitText } from "../text-clip.js";
import type { CorrectiveMetadata } from "../types.js";
import { isWeak } from "../weakness.js";
import { type BotEvalFigures, type QuestionOutcome, summarizeOutcomes } from "./bot-metrics.js";
import { EvaluationError } from "./evaluation-error.js";
import {
  firstAnswerRank,
  type JudgedQuestion,
  type UnmatchedPath,
  unmatchedJudgedPaths,
} from "./judged-questions.js";

/** `bot`: the bot's own settings with the environment's overrides, exactly as a session resolves them. */
export const CORRECTIVE_SETTINGS = ["bot", "off", "signal", "haiku", "auto"] as const;
export type CorrectiveSetting = (typeof CORRECTIVE_SETTINGS)[number];

export interface SettingReport extends BotEvalFigures {
  setting: CorrectiveSetting;
  /**
   * False when the setting did not run as configured: its model grader could not be built (the
   * signal graded instead) or some of its calls failed (each taken as "correct"). Its weak-flag,
   * rescue and final-text figures are then not the model grader's, whatever they say.
   */
  reliable: boolean;
  /** Why it is unreliable, in one line (null when reliable). */
  problem: string | null;
  perQuestion: QuestionOutcome[];
}

/** The stable `eval <bot> --questions --json` shape (docs/evaluation.md "Judging a bot"). Keys may be added, never renamed. */
export interface BotEvalReport {
  bot: string;
  questionsFile: string;
  /** Documents in the bot's index, when the backend can say (the embedded engine can). */
  documents: number | null;
  indexMs: number;
  /** Judged paths no document matches (only with `lenient`; otherwise they stop the run). */
  unmatchedRelevant: UnmatchedPath[];
  settings: SettingReport[];
  /**
   * With both `haiku` and `auto` compared: the misses haiku rescues (no answer among the search's
   * hits, one in the final text) and how many of them auto rescues too; null otherwise.
   */
  autoKeepsHaiku: AutoKeepsHaiku | null;
}

export interface AutoKeepsHaiku {
  haikuRescued: number;
  autoKept: number;
  /** auto's model calls per 100 searches, beside what it kept. */
  autoCallsPer100: number;
}

/** The misses haiku rescues that auto rescues too (null unless both settings were compared). */
export function autoKeepsHaiku(settings: readonly SettingReport[]): AutoKeepsHaiku | null {
  const haiku = settings.find((s) => s.setting === "haiku");
  const auto = settings.find((s) => s.setting === "auto");
  if (!haiku || !auto) return null;
  const rescued = (s: SettingReport) =>
    new Set(
      s.perQuestion
        .filter((o) => o.kind === "answerable" && o.searchRank === 0 && o.finalRank > 0)
        .map((o) => o.id),
    );
  const byHaiku = rescued(haiku);
  const byAuto = rescued(auto);
  return {
    haikuRescued: byHaiku.size,
    autoKept: [...byHaiku].filter((id) => byAuto.has(id)).length,
    autoCallsPer100: auto.modelCallsPer100,
  };
}

/** Judged paths that match no document of the bot: the run stops before asking anything. */
export class UnmatchedRelevantError extends EvaluationError {
  constructor(
    readonly unmatched: readonly UnmatchedPath[],
    where: string,
    bot: string,
  ) {
    const first = unmatched[0]!;
    const more = unmatched.length > 1 ? ` (and ${unmatched.length - 1} more)` : "";
    super(
      "unmatched-relevant",
      `${where}: question "${first.question}": relevant path "${first.path}" matches no document of bot "${bot}"${more}; ` +
        "fix the path, or pass --lenient to score such questions as misses with a warning",
    );
    this.name = "UnmatchedRelevantError";
  }
}

export type BotEvalProgress = (event: { collection: string; done: number; total: number }) => void;

export async function evaluateBot(
  bot: BotDefinition,
  questions: readonly JudgedQuestion[],
  options: {
    settings: readonly CorrectiveSetting[];
    questionsFile: string;
    env?: NodeJS.ProcessEnv;
    /** Judged paths that match no document are reported, not an error. */
    lenient?: boolean;
    onIndexProgress?: BotEvalProgress;
    onProgress?: BotEvalProgress;
  },
): Promise<BotEvalReport> {
  const env = options.env ?? process.env;
  const indexStarted = performance.now();
  const opened = await openBotBackend(
    bot,
    options.onIndexProgress ? { onProgress: options.onIndexProgress } : {},
  );
  const indexMs = Math.round(performance.now() - indexStarted);
  try {
    const ids = documentIds(opened.backend);
    const unmatchedRelevant = ids === null ? [] : unmatchedJudgedPaths(questions, ids);
    if (unmatchedRelevant.length && !options.lenient) {
      throw new UnmatchedRelevantError(unmatchedRelevant, options.questionsFile, bot.name);
    }
    const settings: SettingReport[] = [];
    for (const setting of options.settings) {
      const grader = { unavailable: null as string | null, firstError: null as string | null };
      const assembled = assembleBot(withSetting(bot, setting), opened.backend, envFor(setting, env), {
        unavailable: (message) => {
          grader.unavailable ??= message;
        },
        failed: (error) => {
          grader.firstError ??= errorMessage(error);
        },
      });
      const corrector = assembled.correctorFor();
      const resolution = assembled.lastResolution();
      const expectsModel = resolution?.enabled === true && resolution.grader !== "signal";
      const outcomes: QuestionOutcome[] = [];
      for (const [i, question] of questions.entries()) {
        const started = performance.now();
        const request = { query: question.text };
        // The caller may search whatever the bot's tools offer, as over stdio.
        const call = await searchCall(assembled.pipeline, request, assembled.backend.collections());
        const response = call.response!;
        const original = call.text;
        const corrected = await correctCall(corrector, call, {
          toolName: "search_knowledge",
          question: question.text,
          signal: AbortSignal.timeout(DEADLINES.offlineCorrectivePassMs),
        });
        const final = modelText(corrected);
        const metadata: CorrectiveMetadata | undefined = corrected.correction?.metadata;
        const ms = performance.now() - started;
        const searchIds = response.results.map((h) => h.id);
        const finalIds = docIdsIn(final);
        const outcome: QuestionOutcome = {
          id: question.id,
          text: question.text,
          kind: question.kind,
          relevant: [...question.relevant],
          searchRank: firstAnswerRank(searchIds, question.relevant),
          finalRank: firstAnswerRank(finalIds, question.relevant),
          searchIds,
          searchRelevance: response.results.map((h) => h.relevance),
          finalIds,
          bestScore: response.bestScore,
          flagged: metadata?.verdicts.length ? metadata.verdicts[0] !== "correct" : isWeak(response),
          toldNotCovered: metadata?.notCovered !== undefined,
          originalChars: original.length,
          finalChars: final.length,
          modelCalls: modelCallsOf(metadata, resolution?.retryBudget ?? 1),
          graderFailures: graderFailuresOf(metadata),
          ms: Math.round(ms * 10) / 10,
        };
        if (question.style) outcome.style = question.style;
        if (question.vocab) outcome.vocab = question.vocab;
        outcomes.push(outcome);
        options.onProgress?.({ collection: setting, done: i + 1, total: questions.length });
      }
      const figures = summarizeOutcomes(outcomes);
      const problem = expectsModel ? settingProblem(resolution.grader, grader, figures.grader) : null;
      settings.push({ setting, ...figures, reliable: problem === null, problem, perQuestion: outcomes });
    }
    return {
      bot: bot.name,
      questionsFile: options.questionsFile,
      documents: documentCount(opened.backend),
      indexMs,
      unmatchedRelevant,
      settings,
      autoKeepsHaiku: autoKeepsHaiku(settings),
    };
  } finally {
    await opened.close();
  }
}

/** The bot with its corrective block set to one compared setting (`bot` keeps it as written). */
function withSetting(bot: BotDefinition, setting: CorrectiveSetting): BotDefinition {
  if (setting === "bot") return bot;
  const block = { ...(bot.config.correctiveRetrieval ?? {}) };
  if (setting === "off") block.enabled = false;
  else Object.assign(block, { enabled: true, grader: setting });
  return { ...bot, config: { ...bot.config, correctiveRetrieval: block } };
}

/**
 * A compared setting is the setting asked for: the corrective variables that would override
 * the bot's block (kill-switch included) are left out. `bot` sees the environment as it is.
 */
function envFor(setting: CorrectiveSetting, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (setting === "bot") return env;
  const out = { ...env };
  for (const name of Object.values(CORRECTIVE_ENV)) delete out[name];
  return out;
}

/** Doc ids in the order their doc-id lines appear in a rendered text, each once. */
export function docIdsIn(text: string): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    const parsed = parseDocIdLine(line);
    if (!parsed) continue;
    const key = `${parsed.collection}\u0000${parsed.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    ids.push(parsed.id);
  }
  return ids;
}

/**
 * Why a setting that asks a model grader did not run as configured, or null when it did: the
 * grader could not be built, or some of its calls failed (the first failure's message says why).
 */
function settingProblem(
  graderSetting: string,
  seen: { unavailable: string | null; firstError: string | null },
  counts: { calls: number; failed: number },
): string | null {
  if (seen.unavailable !== null) {
    return `grader "${graderSetting}" unavailable (${seen.unavailable}); the signal graded instead`;
  }
  if (counts.failed === 0) return null;
  const why = seen.firstError ?? REASON_GRADER_UNPARSEABLE;
  return `${counts.failed} of ${counts.calls} model grader calls failed (${oneLine(why)}); each was taken as "correct"`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return fitText(line, 200);
}

/** Grading passes whose model call failed: the grader's fallback reasons, never a model's own. */
function graderFailuresOf(metadata: CorrectiveMetadata | undefined): number {
  if (metadata?.graderMode !== "haiku") return 0;
  return metadata.reasons.filter((r) => r === REASON_GRADER_UNAVAILABLE || r === REASON_GRADER_UNPARSEABLE)
    .length;
}

/**
 * Model calls of one corrective pass, from its record: a model-graded pass asks the model at
 * every grading round except the one after the last re-query the budget allows.
 */
function modelCallsOf(metadata: CorrectiveMetadata | undefined, budget: number): number {
  if (metadata?.graderMode !== "haiku") return 0;
  return Math.max(1, metadata.verdicts.length - (metadata.retries >= budget ? 1 : 0));
}

/** Every document id of an engine that can list them (the embedded one), else null. */
function documentIds(backend: unknown): string[] | null {
  const engine = backend as {
    collections?: () => string[];
    collectionIndex?: (n: string) => { documents?: { id: string }[] } | undefined;
  };
  if (typeof engine.collectionIndex !== "function" || typeof engine.collections !== "function") return null;
  const ids: string[] = [];
  for (const name of engine.collections()) {
    for (const doc of engine.collectionIndex(name)?.documents ?? []) ids.push(doc.id);
  }
  return ids;
}

function documentCount(backend: unknown): number | null {
  const engine = backend as { collections?: () => string[]; collectionIndex?: (n: string) => unknown };
  if (typeof engine.collectionIndex !== "function" || typeof engine.collections !== "function") return null;
  let total = 0;
  for (const name of engine.collections()) {
    const index = engine.collectionIndex(name) as { documentCount?: number } | undefined;
    total += index?.documentCount ?? 0;
  }
  return total;
}
