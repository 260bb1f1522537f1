import type { RetryHints } from "../../types.js";
import type { Analyzer } from "../analysis/analyzer.js";
import { broaderQuery } from "./broader-query.js";
import type { FeedbackHints } from "./feedback-hints.js";
import type { RescuePlan } from "./rescue-candidates.js";

/** Rescue candidates a response carries (the corrective pass fuses them; the footer shows one). */
export const MAX_RESCUE_QUERIES_SHOWN = 6;

/**
 * The hints a weak response carries (docs/design.md §3): a broader query, our corpus-derived narrower
 * query and related terms, and — when the index was consulted — every rescue candidate and the
 * query words no document contains. The broader query is the first rescue candidate when there
 * is one (it never drops the query's most informative word), else Huginn's lexical rule.
 * Undefined when there is nothing to offer, so the response then has no `retryHints` key at all
 * (as Huginn omits it).
 */
export function retryHints(
  query: string,
  feedback: FeedbackHints,
  analyzer: Analyzer,
  plan?: RescuePlan,
): RetryHints | undefined {
  const hints: RetryHints = {};
  // The broader query drops words; the feedback candidates add them, so neither leads it.
  const lead = plan?.candidates.find(
    (c) => c.strategy !== "feedback_terms" && c.strategy !== "feedback_expansion",
  );
  const broader = lead
    ? { query: lead.query, strategy: lead.strategy }
    : plan
      ? undefined
      : broaderQuery(query, analyzer);
  if (broader) {
    hints.broaderQuery = broader.query;
    hints.broaderQueryStrategy = broader.strategy;
  }
  if (feedback.narrowerQuery && feedback.narrowerQuery.toLowerCase() !== query.trim().toLowerCase()) {
    hints.narrowerQuery = feedback.narrowerQuery;
    hints.narrowerQueryStrategy = feedback.narrowerQueryStrategy;
  }
  if (feedback.relatedTerms?.length) hints.relatedTerms = feedback.relatedTerms;
  if (plan?.candidates.length) {
    hints.rescueQueries = plan.candidates
      .slice(0, MAX_RESCUE_QUERIES_SHOWN)
      .map((c) => ({ query: c.query, strategy: c.strategy, keptShare: c.keptShare }));
  }
  if (plan?.unmatchedTerms.length) {
    hints.unmatchedTerms = [...plan.unmatchedTerms];
    if (plan.unmatchedShare !== undefined) hints.unmatchedShare = plan.unmatchedShare;
  }
  return Object.keys(hints).length ? hints : undefined;
}
