// `second-look calibrate`: a bot's relevance calibration refitted on its own judged questions
// and stored with its index (src/knowledge/bot-calibration.ts; a postgres bot's in its database,
// src/backends/postgres/pg-calibration.ts). The weak flag's figures are
// measured by searching the bot's engine exactly as it searches for a user: before (the model it
// uses now), after held-out (each question scored by a model fitted without it) and after as stored.

import { openEmbeddedEngine } from "../backends/embedded/open-embedded.js";
import { loadPostgresBackend } from "../backends/postgres/postgres-entry.js";
import type { BotDefinition } from "../bots/discovery.js";
import { openBotBackend } from "../connectors/open-bot-backend.js";
import { type StoredCalibration, writeBotCalibration } from "../knowledge/bot-calibration.js";
import type { RefreshProgress } from "../knowledge/index/refresh.js";
import type { RankingCore } from "../knowledge/ranking-core/index.js";
import { type CalibrationModel, DEFAULT_CALIBRATION } from "../knowledge/relevance.js";
import { FEATURE_NAMES } from "../knowledge/relevance-features.js";
import { percent } from "./bot-report-rows.js";
import {
  ANSWER_DEPTH,
  fitCalibration,
  type LabelledSearch,
  labelledSearches,
  type WeakOutcome,
  type WeakSignalFigures,
  weakFlagFigures,
} from "./calibration-fit.js";
import { EvaluationError } from "./evaluation-error.js";
import { type JudgedQuestion, matchesJudgedPath } from "./judged-questions.js";

/** Fewer judged hits of either kind than this fit noise, not a calibration. */
export const MIN_JUDGED_HITS = 5;
/** Folds of the held-out figures (by question); fewer questions than folds skip them. */
export const CALIBRATION_FOLDS = 5;

export type WeakFigures = Omit<WeakSignalFigures, "bandPrecision">;

/**
 * The figures a new fit must not make worse to be stored, and which way is better: fewer false
 * alarms, more misses caught, more unanswerable questions flagged. (AUC is shown, not decisive:
 * a threshold-free ranking of searches, it says nothing of what the weak flag will do.)
 */
export const DECISIVE_FIGURES = [
  { figure: "falseAlarms", label: "false alarms", better: "lower" },
  { figure: "missesCaught", label: "misses caught", better: "higher" },
  { figure: "unanswerableFlagged", label: "unanswerable flagged", better: "higher" },
] as const satisfies readonly { figure: keyof WeakFigures; label: string; better: "lower" | "higher" }[];

export interface FigureChange {
  figure: (typeof DECISIVE_FIGURES)[number]["figure"];
  label: string;
  current: number;
  fitted: number;
}

/** The new fit held-out against the model the bot uses now, on the same questions. */
export interface FitComparison {
  /** Figures the new fit makes worse, and better (a figure nothing was counted for is neither). */
  worse: FigureChange[];
  better: FigureChange[];
  /** Stored only when this is true (or with `force`): nothing worse, something better. */
  improvement: boolean;
  /** Why it is not an improvement, in one line (null when it is). */
  reason: string | null;
}

export interface BotCalibrationReport {
  bot: string;
  questionsFile: string;
  questions: number;
  answerable: number;
  unanswerable: number;
  /** Top-10 hits the model was fitted on, and how many of them are judged relevant. */
  hits: number;
  relevantHits: number;
  /** The model the bot used before this run: `"shipped"` or `"bot"` (an earlier calibrate). */
  previous: "shipped" | "bot";
  before: WeakFigures;
  /** Each question scored by a model fitted on the other folds (null with too few questions). */
  afterHeldOut: WeakFigures | null;
  /** The stored model on the questions it was fitted on (optimistic: read afterHeldOut). */
  afterFitted: WeakFigures;
  model: CalibrationModel;
  /** The new fit (held-out) against the current model; decides whether it is stored. */
  comparison: FitComparison;
  /** Stored although it is not an improvement (`force`). */
  forced: boolean;
  /** The file the model was stored in: embedded bots (null when not stored, and for a postgres bot). */
  file: string | null;
  /**
   * Where the model was stored: the file, or a postgres bot's table and server; null with
   * `dryRun` and when the fit is not an improvement (without `force`): the bot keeps its model.
   */
  storedIn: string | null;
}

export class CalibrationDataError extends EvaluationError {
  constructor(message: string) {
    super("bad-calibration-data", message);
    this.name = "CalibrationDataError";
  }
}

/**
 * What a fit searches: per question and pass (rerank or not), the engine that answers the
 * question as the bot does — the embedded engine itself, or a postgres bot's candidates for the
 * question with its collections' statistics — and where the fitted model goes.
 */
interface CalibrationSubject {
  /** The model the bot uses now. */
  previous: CalibrationModel;
  engineFor: (question: number, rerank: boolean) => RankingCore;
  /** Stores the model; returns where it went (a file path for the embedded engine). */
  store: (stored: StoredCalibration) => Promise<string>;
  close: () => Promise<void>;
}

export async function calibrateBot(
  bot: BotDefinition,
  questions: readonly JudgedQuestion[],
  options: { questionsFile: string; dryRun?: boolean; force?: boolean; onIndexProgress?: RefreshProgress },
): Promise<BotCalibrationReport> {
  const subject = await openSubject(bot, questions, options);
  try {
    return await fitAndStore(bot, questions, subject, options);
  } finally {
    await subject.close();
  }
}

async function openSubject(
  bot: BotDefinition,
  questions: readonly JudgedQuestion[],
  options: { onIndexProgress?: RefreshProgress },
): Promise<CalibrationSubject> {
  const knowledge = bot.config.knowledge;
  if (knowledge.backend === "embedded") {
    const { engine } = await openEmbeddedEngine(
      bot.dir,
      knowledge.collections ?? {},
      options.onIndexProgress ? { onProgress: options.onIndexProgress } : {},
    );
    return {
      previous: engine.calibrationModel,
      engineFor: () => engine,
      store: (stored) => writeBotCalibration(bot.dir, stored),
      close: async () => {},
    };
  }
  if (knowledge.backend === "postgres") {
    // The bot's index as `second-look index` left it: calibrate searches it, never re-indexes it.
    const opened = await openBotBackend(bot);
    try {
      const backend = opened.backend;
      const { PostgresBackend } = await loadPostgresBackend();
      if (!(backend instanceof PostgresBackend))
        throw new EvaluationError("unexpected-backend", "a postgres bot opened another backend");
      const previous = (await backend.storedCalibration()) ?? DEFAULT_CALIBRATION;
      const engines: Record<"firstPass" | "reranked", RankingCore>[] = [];
      for (const q of questions) {
        engines.push({
          firstPass: await backend.engineFor({ query: q.text, rerank: false }),
          reranked: await backend.engineFor({ query: q.text }),
        });
      }
      return {
        previous,
        engineFor: (question, rerank) => engines[question]![rerank ? "reranked" : "firstPass"],
        store: (stored) => backend.storeCalibration(stored),
        close: opened.close,
      };
    } catch (error) {
      await opened.close();
      throw error;
    }
  }
  throw new CalibrationDataError(
    `bot "${bot.name}" uses the ${knowledge.backend} backend, which ranks on its server; calibrate refits the embedded and postgres backends' relevance`,
  );
}

async function fitAndStore(
  bot: BotDefinition,
  questions: readonly JudgedQuestion[],
  subject: CalibrationSubject,
  options: { questionsFile: string; dryRun?: boolean; force?: boolean },
): Promise<BotCalibrationReport> {
  const { previous: previousModel, engineFor } = subject;
  const judged = resolveRelevant(engineFor, questions);
  const searches = labelledSearches({ name: bot.name, engine: engineFor, questions: judged });
  const hits = searches.flatMap((s) => s.reranked);
  const relevantHits = hits.filter((h) => h.relevant === 1).length;
  if (relevantHits < MIN_JUDGED_HITS || hits.length - relevantHits < MIN_JUDGED_HITS) {
    throw new CalibrationDataError(
      `${options.questionsFile}: the bot's top 10 hold ${relevantHits} judged-relevant and ` +
        `${hits.length - relevantHits} other hits; a fit needs at least ${MIN_JUDGED_HITS} of each ` +
        "(add answerable questions whose answering pages the search finds, and check that `relevant` paths match the bot's document ids)",
    );
  }

  const before = measure(engineFor, judged, previousModel);
  const afterHeldOut = judged.length >= 2 * CALIBRATION_FOLDS ? heldOut(engineFor, judged, searches) : null;
  const model = fitCalibration(searches, FEATURE_NAMES);
  const afterFitted = measure(engineFor, judged, model);
  // The engines go back to the model the bot uses (the embedded one is the bot's own engine).
  for (const position of judged.keys()) engineFor(position, true).useCalibration(previousModel);
  const comparison = compareFits(before, afterHeldOut);
  const store = comparison.improvement || options.force === true;
  let storedIn: string | null = null;
  if (!options.dryRun && store) {
    storedIn = await subject.store({
      version: 1,
      model: { features: [...model.features], weights: [...model.weights], bias: model.bias },
      fittedOn: { questions: options.questionsFile, count: judged.length, at: new Date().toISOString() },
    });
  }
  const embedded = bot.config.knowledge.backend === "embedded";
  return {
    bot: bot.name,
    questionsFile: options.questionsFile,
    questions: judged.length,
    answerable: judged.filter((q) => q.answerable).length,
    unanswerable: judged.filter((q) => !q.answerable).length,
    hits: hits.length,
    relevantHits,
    previous: previousModel === DEFAULT_CALIBRATION ? "shipped" : "bot",
    before,
    afterHeldOut,
    afterFitted,
    model,
    comparison,
    forced: storedIn !== null && !comparison.improvement,
    file: embedded ? storedIn : null,
    storedIn,
  };
}

/**
 * The new fit, each question scored by a fit that never saw it, against the bot's current model
 * on the same questions. (When the current model is an earlier fit on these very questions its
 * figures are optimistic, which only makes a new fit harder to store.)
 */
export function compareFits(current: WeakFigures, heldOut: WeakFigures | null): FitComparison {
  if (heldOut === null) {
    return {
      worse: [],
      better: [],
      improvement: false,
      reason: `an improvement is judged on held-out folds, which need at least ${2 * CALIBRATION_FOLDS} questions`,
    };
  }
  const worse: FigureChange[] = [];
  const better: FigureChange[] = [];
  for (const { figure, label, better: direction } of DECISIVE_FIGURES) {
    const was = current[figure];
    const now = heldOut[figure];
    if (was === null || now === null || was === now) continue;
    const change = { figure, label, current: was, fitted: now };
    (now < was === (direction === "lower") ? better : worse).push(change);
  }
  const improvement = worse.length === 0 && better.length > 0;
  return {
    worse,
    better,
    improvement,
    reason: improvement
      ? null
      : worse.length
        ? `held-out, the new fit is worse: ${changesText(worse)}`
        : "held-out, the new fit is no better on false alarms, misses caught or unanswerable flagged",
  };
}

/** `false alarms 17.3% → 50.0%, …` */
export function changesText(changes: readonly FigureChange[]): string {
  return changes.map((c) => `${c.label} ${percent(c.current)} → ${percent(c.fitted)}`).join(", ");
}

type EngineFor = CalibrationSubject["engineFor"];

interface ResolvedQuestion {
  text: string;
  answerable: boolean;
  relevant: ReadonlySet<string>;
}

/**
 * Judged paths resolved to the bot's document ids (a path matches as a suffix of an id): the ids
 * of every document the question's searches can return.
 */
function resolveRelevant(engineFor: EngineFor, questions: readonly JudgedQuestion[]): ResolvedQuestion[] {
  const idsOf = new Map<RankingCore, string[]>();
  const ids = (engine: RankingCore) => {
    let found = idsOf.get(engine);
    if (!found) {
      found = engine
        .collections()
        .flatMap((name) => engine.collectionIndex(name)!.documents.map((d) => d.id));
      idsOf.set(engine, found);
    }
    return found;
  };
  return questions.map((q, position) => {
    const candidates = new Set([...ids(engineFor(position, true)), ...ids(engineFor(position, false))]);
    return {
      text: q.text,
      answerable: q.kind === "answerable",
      relevant: new Set(
        [...candidates].filter((id) => q.relevant.some((path) => matchesJudgedPath(id, path))),
      ),
    };
  });
}

/** The weak flag of the bot's default search (as a user's search runs) under a model. */
function measure(
  engineFor: EngineFor,
  questions: readonly ResolvedQuestion[],
  model: CalibrationModel,
  only?: (position: number) => boolean,
): WeakFigures {
  return weakFlagFigures(outcomes(engineFor, questions, model, only));
}

function outcomes(
  engineFor: EngineFor,
  questions: readonly ResolvedQuestion[],
  model: CalibrationModel,
  only: (position: number) => boolean = () => true,
): WeakOutcome[] {
  const out: WeakOutcome[] = [];
  questions.forEach((q, position) => {
    if (!only(position)) return;
    const engine = engineFor(position, true);
    engine.useCalibration(model);
    const response = engine.searchSync({ query: q.text });
    out.push({
      bestScore: response.results.length ? response.bestScore : 0,
      answerable: q.answerable,
      answered: q.answerable && response.results.slice(0, ANSWER_DEPTH).some((h) => q.relevant.has(h.id)),
    });
  });
  return out;
}

/** Every question scored by a model fitted on the folds it is not in. */
function heldOut(
  engineFor: EngineFor,
  questions: readonly ResolvedQuestion[],
  searches: readonly LabelledSearch[],
): WeakFigures {
  const all: WeakOutcome[] = [];
  for (let fold = 0; fold < CALIBRATION_FOLDS; fold++) {
    const inFold = (position: number) => position % CALIBRATION_FOLDS === fold;
    const model = fitCalibration(
      searches.filter((s) => !inFold(s.question)),
      FEATURE_NAMES,
    );
    all.push(...outcomes(engineFor, questions, model, inFold));
  }
  return weakFlagFigures(all);
}
