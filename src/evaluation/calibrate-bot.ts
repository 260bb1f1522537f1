// `second-look calibrate`: a bot's relevance calibration refitted on its own judged questions
// and stored with its index (src/knowledge/bot-calibration.ts). The weak flag's figures are
// measured by searching the bot's engine exactly as it searches for a user: before (the model it
// uses now), after held-out (each question scored by a model fitted without it) and after as stored.
import type { BotDefinition } from "../bots/discovery.js";
import { writeBotCalibration } from "../knowledge/bot-calibration.js";
import type { KnowledgeEngine } from "../knowledge/engine.js";
import type { RefreshProgress } from "../knowledge/index/refresh.js";
import { openEmbeddedEngine } from "../knowledge/open-embedded.js";
import { type CalibrationModel, DEFAULT_CALIBRATION } from "../knowledge/relevance.js";
import { FEATURE_NAMES } from "../knowledge/relevance-features.js";
import {
  ANSWER_DEPTH,
  fitCalibration,
  type LabelledSearch,
  labelledSearches,
  type WeakOutcome,
  type WeakSignalFigures,
  weakFlagFigures,
} from "./calibration-fit.js";
import { type JudgedQuestion, matchesJudgedPath } from "./judged-questions.js";

/** Fewer judged hits of either kind than this fit noise, not a calibration. */
export const MIN_JUDGED_HITS = 5;
/** Folds of the held-out figures (by question); fewer questions than folds skip them. */
export const CALIBRATION_FOLDS = 5;

export type WeakFigures = Omit<WeakSignalFigures, "bandPrecision">;

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
  /** Where the model was stored (null with `dryRun`). */
  file: string | null;
}

export class CalibrationDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CalibrationDataError";
  }
}

export async function calibrateBot(
  bot: BotDefinition,
  questions: readonly JudgedQuestion[],
  options: { questionsFile: string; dryRun?: boolean; onIndexProgress?: RefreshProgress },
): Promise<BotCalibrationReport> {
  const knowledge = bot.config.knowledge;
  if (knowledge.backend !== "embedded") {
    throw new CalibrationDataError(
      `bot "${bot.name}" uses the ${knowledge.backend} backend; calibrate refits the embedded engine's relevance only`,
    );
  }
  const { engine } = await openEmbeddedEngine(
    bot.dir,
    knowledge.collections ?? {},
    options.onIndexProgress ? { onProgress: options.onIndexProgress } : {},
  );
  const previousModel = engine.calibrationModel;
  const judged = resolveRelevant(engine, questions);
  const searches = labelledSearches({ name: bot.name, engine, questions: judged });
  const hits = searches.flatMap((s) => s.reranked);
  const relevantHits = hits.filter((h) => h.relevant === 1).length;
  if (relevantHits < MIN_JUDGED_HITS || hits.length - relevantHits < MIN_JUDGED_HITS) {
    throw new CalibrationDataError(
      `${options.questionsFile}: the bot's top 10 hold ${relevantHits} judged-relevant and ` +
        `${hits.length - relevantHits} other hits; a fit needs at least ${MIN_JUDGED_HITS} of each ` +
        "(add answerable questions whose answering pages the search finds, and check that `relevant` paths match the bot's document ids)",
    );
  }

  const before = measure(engine, judged, previousModel);
  const afterHeldOut = judged.length >= 2 * CALIBRATION_FOLDS ? heldOut(engine, judged, searches) : null;
  const model = fitCalibration(searches, FEATURE_NAMES);
  const afterFitted = measure(engine, judged, model);
  engine.useCalibration(previousModel);
  let file: string | null = null;
  if (!options.dryRun) {
    file = await writeBotCalibration(bot.dir, {
      version: 1,
      model: { features: [...model.features], weights: [...model.weights], bias: model.bias },
      fittedOn: { questions: options.questionsFile, count: judged.length, at: new Date().toISOString() },
    });
  }
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
    file,
  };
}

interface ResolvedQuestion {
  text: string;
  answerable: boolean;
  relevant: ReadonlySet<string>;
}

/** Judged paths resolved to the bot's document ids (a path matches as a suffix of an id). */
function resolveRelevant(engine: KnowledgeEngine, questions: readonly JudgedQuestion[]): ResolvedQuestion[] {
  const ids = engine
    .collections()
    .flatMap((name) => engine.collectionIndex(name)!.documents.map((d) => d.id));
  return questions.map((q) => ({
    text: q.text,
    answerable: q.kind === "answerable",
    relevant: new Set(ids.filter((id) => q.relevant.some((path) => matchesJudgedPath(id, path)))),
  }));
}

/** The weak flag of the bot's default search (as a user's search runs) under a model. */
function measure(
  engine: KnowledgeEngine,
  questions: readonly ResolvedQuestion[],
  model: CalibrationModel,
  only?: (position: number) => boolean,
): WeakFigures {
  return weakFlagFigures(outcomes(engine, questions, model, only));
}

function outcomes(
  engine: KnowledgeEngine,
  questions: readonly ResolvedQuestion[],
  model: CalibrationModel,
  only: (position: number) => boolean = () => true,
): WeakOutcome[] {
  engine.useCalibration(model);
  const out: WeakOutcome[] = [];
  questions.forEach((q, position) => {
    if (!only(position)) return;
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
  engine: KnowledgeEngine,
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
    all.push(...outcomes(engine, questions, model, inFold));
  }
  return weakFlagFigures(all);
}
