import type { LexicalIndex, QueryTermStats, ScoredUnit } from "./lexical-index.js";

/** RM3's customary settings (Lavrenko & Croft; Anserini's defaults), not fitted to any collection. */
export const RM3 = { feedbackDocuments: 10, feedbackTerms: 10, originalQueryWeight: 0.5 } as const;

export interface ExpansionTerm {
  termId: number;
  term: string;
  /** Share of the expansion mass (the expansion terms sum to 1). */
  weight: number;
}

/**
 * The terms that best characterise the top-ranked units (a relevance model over the feedback
 * set), weighted by the unit's retrieval score and discounted by collection frequency so that
 * generic words do not crowd out the topic. Query terms are included when they qualify: RM3
 * re-weights the original terms too.
 */
export function relevanceModel(
  index: LexicalIndex,
  feedback: readonly ScoredUnit[],
  isFiller: (term: string) => boolean,
  termLimit: number = RM3.feedbackTerms,
): ExpansionTerm[] {
  if (!feedback.length) return [];
  const topScore = feedback[0]!.score;
  const mass = new Map<number, number>();
  for (const { unit, score } of feedback) {
    const title = index.titleStream(unit);
    const body = index.bodyStream(unit);
    const length = title.length + body.length;
    if (!length) continue;
    // exp(score − top) is the usual stand-in for P(q|d) when the ranker is not a language model.
    const unitWeight = Math.exp(score - topScore) / length;
    for (const stream of [title, body]) {
      for (let i = 0; i < stream.length; i++) {
        const t = stream[i]!;
        mass.set(t, (mass.get(t) ?? 0) + unitWeight);
      }
    }
  }
  const ranked: ExpansionTerm[] = [];
  for (const [termId, value] of mass) {
    if (isFiller(index.term(termId))) continue;
    const rarity = Math.log(1 + index.unitCount / index.documentFrequency(termId));
    ranked.push({ termId, term: index.term(termId), weight: value * rarity });
  }
  // Ties (a word and its bigrams, two words once each in one section) break by the term itself,
  // not its id: ids follow the order an index first met its terms, which differs between the
  // whole collection and the candidate sections the PostgreSQL backend ranks
  // (src/knowledge/ranking-core/candidate-plan.ts), and the hints must name the same terms on both.
  ranked.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  const top = ranked.slice(0, termLimit);
  const total = top.reduce((sum, t) => sum + t.weight, 0) || 1;
  for (const t of top) t.weight /= total;
  return top;
}

/** RM3 interpolation: the original query (normalised) mixed with the relevance model. */
export function expandQuery(
  index: LexicalIndex,
  stats: readonly QueryTermStats[],
  model: readonly ExpansionTerm[],
  originalWeight: number = RM3.originalQueryWeight,
): QueryTermStats[] {
  const queryLength = stats.reduce((sum, s) => sum + s.queryFrequency, 0) || 1;
  const out = new Map<number, QueryTermStats>();
  for (const s of stats) {
    if (s.termId < 0) continue;
    out.set(s.termId, { ...s, queryFrequency: (originalWeight * s.queryFrequency) / queryLength });
  }
  for (const t of model) {
    const add = (1 - originalWeight) * t.weight;
    const existing = out.get(t.termId);
    if (existing) {
      existing.queryFrequency += add;
    } else {
      const documentFrequency = index.documentFrequency(t.termId);
      out.set(t.termId, {
        term: t.term,
        termId: t.termId,
        queryFrequency: add,
        documentFrequency,
        idf: index.idf(t.termId),
      });
    }
  }
  return [...out.values()];
}
