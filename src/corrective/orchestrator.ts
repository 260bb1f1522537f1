// The corrective pass for one knowledge-search result (docs/design.md §5, docs/reference/muninn-corrective-retrieval.md §6): grade → pick a
// re-query → search inside the call's allow-list with rerank → merge the new hits → grade the
// merged set while the budget lasts. A loop, never recursive; every awaited step is bounded;
// every failure leaves the text as it was. Where muninn went wrong (docs/reference/muninn-corrective-retrieval.md §10), this fixes:
// the re-query stays in the allow-list (8), carries limit/brief/minRelevance (9), sees a weak
// result without hints (10, via the signal grader), does not leave a rescued "No results"
// search insufficient (11), makes no grader call after the last re-query (12), records one
// verdict per re-query (13) and takes hints from the trailing footer only (14).
//
// Each step is a function of its own that takes the pass (corrective-pass.ts) and returns the
// next one with what it decided: gradeStep (step-grade.ts), chooseRequery
// (step-choose-requery.ts), searchStep (step-search.ts) and mergeStep (step-merge.ts), which
// re-reads the merged result for the next gradeStep. No step changes a pass in place. What the
// result shows is read once, at the edge, by one of two readers (shown-result.ts): the
// structured response of an in-process search, or the text of one we only see as text.

import type { CorrectiveOutcome, Grade } from "../types.js";
import {
  type CorrectivePass,
  type CorrectiveRetrievalInput,
  finishPass,
  type NotFound,
  passSettings,
  sayNotFound,
  startPass,
} from "./corrective-pass.js";
import { readShownResult } from "./shown-result.js";
import { chooseRequery } from "./step-choose-requery.js";
import { gradeStep } from "./step-grade.js";
import { mergeStep } from "./step-merge.js";
import { searchStep } from "./step-search.js";

export {
  type CorrectiveRetrievalInput,
  DEFAULT_REQUERY_TIMEOUT_MS,
  type GraderSetting,
} from "./corrective-pass.js";
export type { CorrectiveLanguages } from "./language-mismatch.js";
export { REASON_NO_CANDIDATE } from "./step-choose-requery.js";
export {
  MAX_FUSED_HITS_APPENDED,
  ORIGINAL_NEXT_PAGE_WEIGHT,
  REASON_REQUERY_WEAK,
  REASON_RESCUE_EMPTY,
  REASON_RESCUE_NOT_CONFIDENT,
} from "./step-merge.js";

export async function runCorrectiveRetrieval(input: CorrectiveRetrievalInput): Promise<CorrectiveOutcome> {
  const settings = passSettings(input);
  // The one place the two kinds of result part: structure when the search ran in-process.
  const shown = readShownResult(input.originalResponse, input.originalText, input.brief === true);
  const started = startPass(settings, shown, input.originalText, input.languages);
  if (started.settings.signal?.aborted) return finishPass(started);
  const { pass, notFound } = await correctiveRounds(started);
  return finishPass(notFound ? sayNotFound(pass, notFound.reason, notFound.terms) : pass);
}

/**
 * grade → (choose re-query → search → merge → re-grade) while the grade asks for it and the
 * budget lasts: the last pass, and the line it owes the model when it stopped without better.
 */
async function correctiveRounds(
  start: CorrectivePass,
): Promise<{ pass: CorrectivePass; notFound?: NotFound }> {
  const { budget, signal } = start.settings;
  let pass = start;
  // The grade in hand; undefined when the text changed and must be graded (again).
  let grade: Grade | undefined;
  for (;;) {
    if (grade === undefined) ({ pass, grade } = await gradeStep(pass, pass.retries >= budget));
    if (grade.verdict === "correct" || pass.retries >= budget || signal?.aborted) return { pass };
    const plan = chooseRequery(pass, grade);
    if ("stop" in plan) return plan.notCovered ? { pass, notFound: plan.notCovered } : { pass };
    const searched = await searchStep(pass, plan);
    if (!searched) return { pass };
    const merged = mergeStep(searched.pass, plan, searched.found, grade);
    pass = merged.pass;
    if (merged.outcome === "stop") return merged.notFound ? { pass, notFound: merged.notFound } : { pass };
    if (merged.outcome === "appended") grade = undefined;
  }
}
