// Queries on the example handbook bot (bots/handbook) that the tests of the corrective pass's
// wiring share, each chosen for what the signal grader does with it (src/corrective/, docs/design.md §5).

/**
 * Weak, yet the handbook answers it: the sick-leave page ("Caring for someone who is ill") ranks
 * first, at 22 % relevant, because "kid" is in no page (the page says "child") and counts against
 * every hit. "kid" carries 0.34 of the query's weight, under KEY_ABSENT_TERM_MIN_SHARE, so it is
 * an aside, not the subject: the pass re-queries (the index's rescue candidates, all at once, and
 * the original query's next page). Every candidate keeps a subset of the query's words, and none
 * scores better than the original on the original's scale, so nothing is appended: the pass adds
 * the "no better match" line. (`what if my kid is sick …` was chosen by running candidates through
 * `second-look search`; a weak handbook query whose signal rescue appends hits that answer it was
 * not found: a lexical re-query of the query's own words scores no page above what the original
 * already showed.)
 */
export const HANDBOOK_WEAK_QUERY = "what if my kid is sick and I need to stay home";

/** The rescue candidate that drops the word no page contains ("kid"), one of those the pass tries. */
export const HANDBOOK_WEAK_QUERY_WITHOUT_UNMATCHED = "sick need stay home";

/**
 * Weak, and the handbook has nothing on it: "moving" and "house" are in no page and together are
 * most of the query's weight, so the pass says "not covered" naming them, without a re-query
 * (before the free path's evidence rule it re-queried "day off" and appended unrelated pages).
 */
export const HANDBOOK_UNCOVERED_QUERY = "moving house day off";
