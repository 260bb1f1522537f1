import type { Analyzer } from "../analysis/analyzer.js";
import type { ExpansionTerm } from "../index/feedback.js";

/** How many corpus terms a hint offers: enough to suggest a direction, few enough to read. */
export const RELATED_TERM_LIMIT = 5;
export const NARROWER_EXTRA_TERMS = 2;

export interface FeedbackHints {
  narrowerQuery?: string;
  narrowerQueryStrategy?: string;
  relatedTerms?: string[];
}

/**
 * Corpus-derived hints (we have no knowledge graph): the relevance model of the top-ranked
 * sections names the words the collection uses for the query's topic. `relatedTerms` are the
 * strongest of them that the query lacks; `narrowerQuery` is the query plus the first two.
 * Stems are shown as the surface word the feedback text uses most, so a hint reads as words.
 */
export function feedbackHints(
  query: string,
  expansion: readonly ExpansionTerm[],
  feedbackText: readonly string[],
  analyzer: Analyzer,
): FeedbackHints {
  const queryTerms = new Set(analyzer.words(query).map((w) => analyzer.termOf(w) ?? w));
  const fresh = expansion.filter((t) => !queryTerms.has(t.term));
  if (!fresh.length) return {};
  const surface = surfaceForms(new Set(fresh.map((t) => t.term)), feedbackText, analyzer);
  const related: string[] = [];
  for (const t of fresh) {
    const word = surface.get(t.term);
    // Numbers and one-letter tokens say nothing to a reader.
    if (!word || word.length < 3 || /^\p{N}+$/u.test(word)) continue;
    related.push(word);
    if (related.length === RELATED_TERM_LIMIT) break;
  }
  if (!related.length) return {};
  return {
    relatedTerms: related,
    narrowerQuery: `${query.trim()} ${related.slice(0, NARROWER_EXTRA_TERMS).join(" ")}`,
    narrowerQueryStrategy: "feedback_terms",
  };
}

function surfaceForms(
  stems: ReadonlySet<string>,
  texts: readonly string[],
  analyzer: Analyzer,
): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const text of texts) {
    for (const word of analyzer.words(text)) {
      const stem = analyzer.termOf(word);
      if (stem === undefined || !stems.has(stem)) continue;
      let forms = counts.get(stem);
      if (!forms) {
        forms = new Map();
        counts.set(stem, forms);
      }
      forms.set(word, (forms.get(word) ?? 0) + 1);
    }
  }
  const best = new Map<string, string>();
  for (const [stem, forms] of counts) {
    let top = "";
    let topCount = 0;
    for (const [word, n] of forms) {
      if (n > topCount || (n === topCount && word < top)) {
        top = word;
        topCount = n;
      }
    }
    best.set(stem, top);
  }
  return best;
}
