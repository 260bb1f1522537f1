// Step "choose re-query" of the corrective pass: the round's candidates (a model grade's own,
// else the signal's from the current hints) and where they may search (inside the allow-list),
// or why the pass stops here — with the "not covered" line it owes the model, if any. It changes
// nothing: the plan carries the queries tried with this round's, for the search step to keep.

import { clipText } from "../text-clip.js";
import type { Grade } from "../types.js";
import type { CorrectivePass, NotFound } from "./corrective-pass.js";
import { modelCandidates, type RequeryCandidate, signalCandidates } from "./requery-candidates.js";
import { queryIdentity } from "./requery-choice.js";
import { requeryScope } from "./requery-scope.js";

export const REASON_NO_CANDIDATE = "no re-query could be derived from the query";
export const REASON_KEY_TERM_ABSENT = "the question's key words occur in no document";

/** One round's plan: what to search, where, and whose candidates they are. */
export interface RequeryPlan {
  candidates: RequeryCandidate[];
  collections: string[];
  /** The candidates are the model grader's (no next page, no rescue bar). */
  fromModel: boolean;
  /** queryIdentity() of every query tried, this round's candidates included. */
  tried: ReadonlySet<string>;
}

/** The pass stops; `notCovered` is the note to append first, when one is due. */
export interface RequeryStop {
  stop: string;
  notCovered?: NotFound;
}

/** Picks the round's re-queries; the chosen ones count as tried from the plan on. */
export function chooseRequery(pass: CorrectivePass, grade: Grade): RequeryPlan | RequeryStop {
  const { settings, unmatchedTerms, absentKeyTerms } = pass;
  const fromModel = pass.gradedByModel;
  let candidates = fromModel ? modelCandidates(grade, settings.originalQuery, pass.tried) : [];
  if (fromModel && candidates.length === 0 && grade.verdict === "insufficient") {
    // The model read the results and judged the documents silent, offering no query: a
    // re-search on the signal's hints would only append what it already judged off-topic.
    return {
      stop: "the model offered no re-query",
      notCovered: { reason: grade.reason, terms: unmatchedTerms },
    };
  }
  if (!fromModel && pass.retries === 0 && absentKeyTerms.length > 0) {
    // The subject occurs nowhere: every re-query the signal can derive drops it, so whatever
    // one finds answers another question ("connect to a database" for "… a PostgreSQL database").
    return {
      stop: REASON_KEY_TERM_ABSENT,
      notCovered: { reason: REASON_KEY_TERM_ABSENT, terms: absentKeyTerms },
    };
  }
  if (candidates.length === 0) candidates = signalCandidates(pass.hints, pass.tried);
  if (candidates.length === 0) {
    settings.log.debug({ query: clipText(settings.originalQuery, 200) }, "corrective: no re-query candidate");
    return pass.retries === 0 && absentKeyTerms.length > 0
      ? { stop: REASON_NO_CANDIDATE, notCovered: { reason: REASON_NO_CANDIDATE, terms: absentKeyTerms } }
      : { stop: REASON_NO_CANDIDATE };
  }
  const scope = requeryScope(settings.allowed, pass.currentCollections, grade.suggestedCollection);
  if ("stop" in scope) {
    settings.log.info({ reason: scope.stop }, "corrective: no collection to re-query");
    return { stop: scope.stop };
  }
  if (grade.suggestedCollection !== undefined && !scope.redirected) {
    settings.log.info(
      { suggested: grade.suggestedCollection },
      "corrective: suggested collection is outside the call's allow-list; ignored",
    );
  }
  const tried = new Set([...pass.tried, ...candidates.map((c) => queryIdentity(c.query))]);
  return { candidates, collections: scope.collections, fromModel, tried };
}
