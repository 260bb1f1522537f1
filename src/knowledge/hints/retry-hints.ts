import type { RetryHints } from "../../types.js";
import { broaderQuery } from "./broader-query.js";
import type { FeedbackHints } from "./feedback-hints.js";

/**
 * The hints a weak response carries (design §3): Huginn's lexical broader query plus our
 * corpus-derived narrower query and related terms. Undefined when there is nothing to offer,
 * so the response then has no `retryHints` key at all (as Huginn omits it).
 */
export function retryHints(query: string, feedback: FeedbackHints): RetryHints | undefined {
  const hints: RetryHints = {};
  const broader = broaderQuery(query);
  if (broader) {
    hints.broaderQuery = broader.query;
    hints.broaderQueryStrategy = broader.strategy;
  }
  if (feedback.narrowerQuery && feedback.narrowerQuery.toLowerCase() !== query.trim().toLowerCase()) {
    hints.narrowerQuery = feedback.narrowerQuery;
    hints.narrowerQueryStrategy = feedback.narrowerQueryStrategy;
  }
  if (feedback.relatedTerms?.length) hints.relatedTerms = feedback.relatedTerms;
  return Object.keys(hints).length ? hints : undefined;
}
