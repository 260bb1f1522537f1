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
// A query in another language than the documents is always asked about (borderline.ts), before
// this rule.
//
// Fitted on the first searches of every documentation bot with recorded grader replies, replayed
// (pydocs, nodejs-api, the Debian handbook in English), and lohelp's English questions over its
// English help for the cost (no replies are recorded for them): among linear rules over two or
// three of the features the product can read without a model (top relevance, lead over the second,
// spread of the top five, the weak flag, the unmatched share, key-term share in the top hit's
// document or its shown section, query length), the one keeping the largest share of haiku's
// rescues on each bot while asking on at most 38 of 100 searches on every bot (2 below the
// 40 budget, for what one replay cannot show). Leave one collection out, the same fit on the
// other three keeps 11 of 16 (pydocs), 5 of 9 (nodejs-api), 6 of 7 (handbook) at 39, 31 and 27
// asks per 100, and lohelp-en asks 35 of 100; the rule it replaced kept 5, 4 and 4 with lohelp-en
// at 46. Keeping 90 % of haiku's rescues on every bot is out of reach of these features: the
// misses left have a top hit with a clear lead that holds every key word, and a rule asking about
// any of them asks about most searches of some bot (`npm run bench -- rescue` lists them).

/** A weak search whose unmatched words carry less than this share of the query is asked about. */
export const AUTO_ABSENCE_SHARE = 0.2;
/** How far the top five may spread per unit of key-term share and still be asked about. */
export const AUTO_SPREAD_PER_KEY_TERM = 0.45;
/** Subtracted from that allowance: a top hit holding under a quarter of the key words is never asked about on spread. */
export const AUTO_SPREAD_OFFSET = 0.1;

/** What the rule reads of a search (borderline.ts SignalEvidence, its coverage reported). */
export interface CoverageEvidence {
  weak: boolean;
  hitCount: number;
  bestRelevance: number;
  fifthRelevance: number;
  keyTermsInTopHit: number;
  unmatchedShare: number;
}

/** Whether the evidence carries what the coverage rule reads (else borderline.ts's band rule decides). */
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
