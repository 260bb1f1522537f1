// The figures `second-look eval <bot> --questions` reports, computed from one record per judged
// question. Pure functions of those records, so each figure can be checked by hand.
import { rocAuc } from "./metrics.js";
import { percentiles } from "./percentiles.js";

/** What one judged question did under one corrective setting. */
export interface QuestionOutcome {
  id: string;
  /** The question as asked. */
  text: string;
  kind: "answerable" | "unanswerable";
  /** The judged answering paths (empty for an unanswerable question). */
  relevant: string[];
  style?: string;
  vocab?: string;
  /** 1-based rank of the first answering document among the search's hits; 0 = none shown. */
  searchRank: number;
  /** The same in the final text the model reads (doc-id lines in order of appearance). */
  finalRank: number;
  /** Doc ids of the search's hits, in rank order. */
  searchIds: string[];
  /** Calibrated relevance of each of those hits, in the same order. */
  searchRelevance: number[];
  /** Doc ids in the final text, in order of appearance, each once. */
  finalIds: string[];
  /** The search's `bestScore` (calibrated relevance of its best hit). */
  bestScore: number;
  /** Flagged weak: the grader's first verdict was not "correct" (the signal's flag when off). */
  flagged: boolean;
  /** The corrective pass told the model the documents do not appear to cover the question (its metadata's `notCovered`). */
  toldNotCovered: boolean;
  originalChars: number;
  finalChars: number;
  /** Calls to a model grader for this search. */
  modelCalls: number;
  /**
   * Of those, calls that failed (threw, timed out or gave no usable verdict): the pass then
   * took the result as correct, so the flag and the final text are not the model's work.
   */
  graderFailures: number;
  /** Search, rendering and corrective pass, wall time. */
  ms: number;
}

/** A share with its counts, so a reader sees how many questions a percentage stands on. */
export interface Share {
  count: number;
  of: number;
  /** count / of, or null when `of` is 0. */
  rate: number | null;
}

export interface RankFigures {
  hit1: number | null;
  hit5: number | null;
  hit10: number | null;
  mrr10: number | null;
}

export interface SubsetFigures {
  questions: number;
  searchHit5: number | null;
  finalHit5: number | null;
  flagged: Share;
}

export interface BotEvalFigures {
  questions: number;
  answerable: number;
  unanswerable: number;
  search: RankFigures;
  /** Ranks in the final text; `anywhere` = an answering document is in it at all. */
  final: RankFigures & { anywhere: number | null };
  weak: {
    /** Flagged although the search's top 5 holds an answer. */
    falseAlarms: Share;
    /** Flagged among answerable questions whose top 5 holds no answer. */
    missesCaught: Share;
    unanswerableFlagged: Share;
    /** AUC of `bestScore` as a predictor of "an answer is in the top 5" (all questions). */
    auc: number | null;
  };
  /**
   * Misses = answerable questions with no answering document among the search's hits;
   * `flagged` of them were flagged, `rescued` of them have one in the final text.
   */
  rescue: { misses: number; flagged: number; rescued: number; rate: number | null };
  /**
   * Searches whose final text says the documents do not appear to cover the question: wrongly,
   * when the search's top 5 holds an answer; rightly, on unanswerable questions.
   */
  toldNotCovered: { answerInTop5: Share; unanswerable: Share };
  /** Final minus original characters on unanswerable questions. */
  charsAddedOnUnanswerable: { median: number | null; p90: number | null };
  finalChars: { median: number | null; p90: number | null };
  modelCallsPer100: number;
  /** Model grader calls in all, and how many of them failed (a failed call is never a verdict). */
  grader: { calls: number; failed: number };
  latencyMs: { p50: number | null; p95: number | null };
  /** Per tag value: `kind=…`, `style=…`, `vocab=…`. */
  subsets: Record<string, SubsetFigures>;
}

export function share(count: number, of: number): Share {
  return { count, of, rate: of === 0 ? null : round(count / of) };
}

function rankFigures(ranks: readonly number[]): RankFigures {
  if (!ranks.length) return { hit1: null, hit5: null, hit10: null, mrr10: null };
  const hit = (k: number) => round(ranks.filter((r) => r > 0 && r <= k).length / ranks.length);
  const mrr = ranks.reduce((sum, r) => sum + (r > 0 && r <= 10 ? 1 / r : 0), 0) / ranks.length;
  return { hit1: hit(1), hit5: hit(5), hit10: hit(10), mrr10: round(mrr) };
}

const inTop5 = (rank: number) => rank > 0 && rank <= 5;

function spread(values: readonly number[], digits = 0): { median: number | null; p90: number | null } {
  if (!values.length) return { median: null, p90: null };
  const [median, p90] = percentiles(values, [50, 90]);
  return { median: round(median!, digits), p90: round(p90!, digits) };
}

export function summarizeOutcomes(outcomes: readonly QuestionOutcome[]): BotEvalFigures {
  const answerable = outcomes.filter((o) => o.kind === "answerable");
  const unanswerable = outcomes.filter((o) => o.kind === "unanswerable");
  const found5 = answerable.filter((o) => inTop5(o.searchRank));
  const missed5 = answerable.filter((o) => !inTop5(o.searchRank));
  const misses = answerable.filter((o) => o.searchRank === 0);
  const auc = rocAuc(
    outcomes.map((o) => o.bestScore),
    outcomes.map((o) => o.kind === "answerable" && inTop5(o.searchRank)),
  );
  const [p50, p95] = outcomes.length
    ? percentiles(
        outcomes.map((o) => o.ms),
        [50, 95],
      )
    : [];
  const finalRanks = answerable.map((o) => o.finalRank);
  return {
    questions: outcomes.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    search: rankFigures(answerable.map((o) => o.searchRank)),
    final: {
      ...rankFigures(finalRanks),
      anywhere: finalRanks.length ? round(finalRanks.filter((r) => r > 0).length / finalRanks.length) : null,
    },
    weak: {
      falseAlarms: share(found5.filter((o) => o.flagged).length, found5.length),
      missesCaught: share(missed5.filter((o) => o.flagged).length, missed5.length),
      unanswerableFlagged: share(unanswerable.filter((o) => o.flagged).length, unanswerable.length),
      auc: Number.isNaN(auc) ? null : round(auc),
    },
    rescue: {
      misses: misses.length,
      flagged: misses.filter((o) => o.flagged).length,
      rescued: misses.filter((o) => o.finalRank > 0).length,
      rate: misses.length ? round(misses.filter((o) => o.finalRank > 0).length / misses.length) : null,
    },
    toldNotCovered: {
      answerInTop5: share(found5.filter((o) => o.toldNotCovered).length, found5.length),
      unanswerable: share(unanswerable.filter((o) => o.toldNotCovered).length, unanswerable.length),
    },
    charsAddedOnUnanswerable: spread(unanswerable.map((o) => o.finalChars - o.originalChars)),
    finalChars: spread(outcomes.map((o) => o.finalChars)),
    modelCallsPer100: outcomes.length
      ? round((100 * outcomes.reduce((sum, o) => sum + o.modelCalls, 0)) / outcomes.length, 1)
      : 0,
    grader: {
      calls: outcomes.reduce((sum, o) => sum + o.modelCalls, 0),
      failed: outcomes.reduce((sum, o) => sum + o.graderFailures, 0),
    },
    latencyMs: {
      p50: p50 === undefined ? null : round(p50, 1),
      p95: p95 === undefined ? null : round(p95, 1),
    },
    subsets: subsets(outcomes),
  };
}

function subsets(outcomes: readonly QuestionOutcome[]): Record<string, SubsetFigures> {
  const groups = new Map<string, QuestionOutcome[]>();
  for (const o of outcomes) {
    for (const [tag, value] of [
      ["kind", o.kind],
      ["style", o.style],
      ["vocab", o.vocab],
    ] as const) {
      if (value === undefined) continue;
      const key = `${tag}=${value}`;
      groups.set(key, [...(groups.get(key) ?? []), o]);
    }
  }
  const out: Record<string, SubsetFigures> = {};
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    const answerable = group.filter((o) => o.kind === "answerable");
    const hit5 = (rank: (o: QuestionOutcome) => number) =>
      answerable.length ? round(answerable.filter((o) => inTop5(rank(o))).length / answerable.length) : null;
    out[key] = {
      questions: group.length,
      searchHit5: hit5((o) => o.searchRank),
      finalHit5: hit5((o) => o.finalRank),
      flagged: share(group.filter((o) => o.flagged).length, group.length),
    };
  }
  return out;
}

export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
