// Grader mode "auto": when to spend a model call on a search the ranking core answered (its
// response reports how the query's words meet the documents, types.ts QueryCoverage). The weak
// line decides when the free path appends and stays where it is; this rule decides only whether
// the model grades. Ask when either holds:
// - the search is weak and the query words no document contains carry less than
//   AUTO_ABSENCE_SHARE of the query's weight: a missing word that is most of the query is the
//   signal's evidence of absence ("matplotlib", "boto3"), a minor one (one word of a long
//   question) is no reason to leave a miss to the signal;
// - the top five hits lie close together for how well the top hit holds the query's key words:
//   best − fifth relevance < AUTO_SPREAD_PER_KEY_TERM × key-term share − AUTO_SPREAD_OFFSET. A
//   top hit holding all of the query's rarest words whose lead over the rest is small is how a near
//   miss looks (the documents speak of the subject, the ranking cannot tell which page answers);
//   one lacking them is more often a question the documents do not cover, which a model call
//   does not change.
// A query in another language than the documents is always asked about (signal-grader.ts), before
// this rule.
//
// Fitted on the first searches of every documentation bot with recorded grader replies, replayed
// (pydocs, nodejs-api, the Debian handbook in English), and of lohelp's English questions over
// its English help for the cost (no replies are recorded for them): over a grid of the three
// values, the rule keeping the largest mean share of haiku's rescues while asking on at most 38 of
// 100 searches on every bot (2 below the 40 budget, for what one replay cannot show;
// bench/auto-rule/fit.ts on bench/auto-rule/collect.ts's tables). It keeps 10 of 16 (pydocs, 38
// asks per 100), 7 of 9 (nodejs-api, 36.5), 6 of 7 (handbook, 27.7) with lohelp-en at 36.3. Left
// out of the fit, each bot gets 10 of 16 (38), 5 of 9 (32.3), 4 of 7 (24.1); fitted with ties
// broken towards more asks instead of fewer (the same rule on all bots), 10 of 16 (40), 7 of 9
// (36.5), 6 of 7 (27.7). No other feature earns a place (bench/auto-rule/study.ts: the key terms
// in the top hit's best section or in hits 1-5, the query's terms in the top hit, how many of hits
// 2-5 hold every key term, the key terms' rarity, each in place of the key-term share, keep 12 to
// 20 of the 32 rescues left out, the shipped share 19). Keeping 90 % of haiku's rescues within 40
// asks per 100 is out of reach of what the product reads without a model: a rule that asks more
// the lower the best, lead and spread, the higher the key-term share, the lower the unmatched
// share and when weak needs 43 asks per 100 on pydocs and 41.7 on nodejs-api even fitted on each
// bot alone, since the misses left include top hits holding every key word with a clear lead (0.24
// to 0.35 over the second) that read as confidently as answered searches
// (`npm run bench -- rescue` lists the misses and what the rule read of them).

/** A weak search whose unmatched words carry less than this share of the query is asked about. */
export const AUTO_ABSENCE_SHARE = 0.2;
/** How far the top five may spread per unit of key-term share and still be asked about. */
export const AUTO_SPREAD_PER_KEY_TERM = 0.5;
/** Subtracted from that allowance: a top hit holding under 28 % of the key words is never asked about on spread. */
export const AUTO_SPREAD_OFFSET = 0.14;

/** What the rule reads of a search (signal-grader.ts SignalEvidence, its coverage reported). */
export interface CoverageEvidence {
  weak: boolean;
  hitCount: number;
  bestRelevance: number;
  fifthRelevance: number;
  keyTermsInTopHit: number;
  unmatchedShare: number;
}

/** Whether the evidence carries what the coverage rule reads (else signal-grader.ts's band rule decides). */
export function hasCoverage<E extends Partial<CoverageEvidence>>(
  evidence: E,
): evidence is E & CoverageEvidence {
  return (
    isUnit(evidence.bestRelevance) &&
    isUnit(evidence.fifthRelevance) &&
    isUnit(evidence.keyTermsInTopHit) &&
    isUnit(evidence.unmatchedShare)
  );
}

/** `auto`'s decision on a search with coverage evidence: ask the model. */
export function autoAsksOnCoverage(evidence: CoverageEvidence): boolean {
  if (evidence.hitCount <= 0) return evidence.weak && evidence.unmatchedShare < AUTO_ABSENCE_SHARE;
  if (evidence.weak && evidence.unmatchedShare < AUTO_ABSENCE_SHARE) return true;
  const spread = evidence.bestRelevance - evidence.fifthRelevance;
  return spread < AUTO_SPREAD_PER_KEY_TERM * evidence.keyTermsInTopHit - AUTO_SPREAD_OFFSET;
}

function isUnit(x: number | undefined): x is number {
  return x !== undefined && Number.isFinite(x) && x >= 0 && x <= 1;
}
