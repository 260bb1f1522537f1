// The corrective pass for one knowledge-search result (docs/design.md §5, docs/reference/muninn-corrective-retrieval.md §6): grade → pick a
// re-query → search inside the call's allow-list with rerank → merge the new hits → grade the
// merged set while the budget lasts. A loop, never recursive; every awaited step is bounded;
// every failure leaves the text as it was. Where muninn went wrong (docs/reference/muninn-corrective-retrieval.md §10), this fixes:
// the re-query stays in the allow-list (8), carries limit/brief/minRelevance (9), sees a weak
// result without hints (10, via the signal grader), does not leave a rescued "No results"
// search insufficient (11), makes no grader call after the last re-query (12), records one
// verdict per re-query (13) and takes hints from the trailing footer only (14).
//
// Each step is a function of its own over one `CorrectivePass` (corrective-pass.ts): gradeStep
// (step-grade.ts), chooseRequery (step-choose-requery.ts), searchStep (step-search.ts) and
// mergeStep (step-merge.ts), which re-reads the merged result for the next gradeStep. What the
// result shows is read once, at the edge, by one of two readers (shown-result.ts): the
// structured response of an in-process search, or the text of one we only see as text.

import type { CorrectiveOutcome } from "../types.js";
import {
  type CorrectivePass,
  type CorrectiveRetrievalInput,
  finishPass,
  passSettings,
  sayNotFound,
  startPass,
} from "./corrective-pass.js";
import { type ShownResult, structuredResult, textResult } from "./shown-result.js";
import { chooseRequery } from "./step-choose-requery.js";
import { gradeStep, recordGrade } from "./step-grade.js";
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
  const pass = startPass(passSettings(input), shownResultOf(input), input.originalText, input.languages);
  if (!pass.settings.signal?.aborted) await correctiveRounds(pass);
  return finishPass(pass);
}

/** The one place the two kinds of result part: structure when the search ran in-process. */
function shownResultOf(input: CorrectiveRetrievalInput): ShownResult {
  return input.originalResponse
    ? structuredResult(input.originalResponse, input.originalText, input.brief === true)
    : textResult(input.originalText, input.brief === true);
}

/** grade → (choose re-query → search → merge → re-grade) while the grade asks for it and the budget lasts. */
async function correctiveRounds(pass: CorrectivePass): Promise<void> {
  const { budget, signal } = pass.settings;
  let grade = await gradeStep(pass, false);
  recordGrade(pass, grade);
  while (grade.verdict !== "correct" && pass.retries < budget && !signal?.aborted) {
    const plan = chooseRequery(pass, grade);
    if ("stop" in plan) {
      if (plan.notCovered) sayNotFound(pass, plan.notCovered.reason, plan.notCovered.terms);
      return;
    }
    const found = await searchStep(pass, plan);
    if (!found) return;
    const merged = mergeStep(pass, plan, found, grade);
    if (merged === "stop") return;
    if (merged === "unchanged") continue;
    grade = await gradeStep(pass, pass.retries >= budget);
    recordGrade(pass, grade);
  }
}
