// Step "choose re-query" of the corrective pass: the round's candidates (a model grade's own,
// else the signal's from the current hints) and where they may search (inside the allow-list),
// or why the pass stops here — with the "not covered" line it owes the model, if any.

import { clipText } from "../text-clip.js";
import type { Grade } from "../types.js";
import type { CorrectivePass } from "./corrective-pass.js";
import { modelCandidates, type RequeryCandidate, signalCandidates } from "./requery-candidates.js";
import { queryIdentity } from "./requery-choice.js";
import { requeryScope } from "./requery-scope.js";

export const REASON_NO_CANDIDATE = "no re-query could be derived from the query";

/** One round's plan: what to search, where, and whose candidates they are. */
export interface RequeryPlan {
  candidates: RequeryCandidate[];
  collections: string[];
  /** The candidates are the model grader's (no next page, no rescue bar). */
  fromModel: boolean;
}

/** The pass stops; `notCovered` is the note to append first, when one is due. */
export interface RequeryStop {
  stop: string;
  notCovered?: { reason: string; terms: readonly string[] };
}

/** Picks the round's re-queries; the chosen ones count as tried from here on. */
export function chooseRequery(pass: CorrectivePass, grade: Grade): RequeryPlan | RequeryStop {
  const { settings, unmatchedTerms } = pass;
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
  if (candidates.length === 0) candidates = signalCandidates(pass.hints, pass.tried);
  if (candidates.length === 0) {
    settings.log.debug({ query: clipText(settings.originalQuery, 200) }, "corrective: no re-query candidate");
    return pass.retries === 0 && unmatchedTerms.length > 0
      ? { stop: REASON_NO_CANDIDATE, notCovered: { reason: REASON_NO_CANDIDATE, terms: unmatchedTerms } }
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
  for (const candidate of candidates) {
    pass.tried.add(queryIdentity(candidate.query));
    pass.origins.set(candidate.query, candidate.origin);
  }
  return { candidates, collections: scope.collections, fromModel };
}
