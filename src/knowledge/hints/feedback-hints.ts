import { type Analyzer, isUnspacedScript } from "../analysis/analyzer.js";
import type { ExpansionTerm } from "../index/feedback.js";

/** How many corpus terms a hint offers: enough to suggest a direction, few enough to read. */
export const RELATED_TERM_LIMIT = 5;
export const NARROWER_EXTRA_TERMS = 2;
/** Characters of the feedback sections read, in all, for the surface forms of the related terms. */
const SURFACE_SCAN_CHARS = 6_000;

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
  const best = new Map<string, string>();
  // A term of a script written without spaces is a dictionary word or bigram as written: it is its
  // own surface form, and segmenting text to find it again costs milliseconds per weak search.
  const pending = new Set<string>();
  for (const stem of stems) {
    if (isUnspacedScript(stem)) best.set(stem, stem);
    else pending.add(stem);
  }
  if (!pending.size) return best;
  const counts = new Map<string, Map<string, number>>();
  // A bounded read: the leading sections name the topic's words often enough, and reading all of
  // them costs a dictionary segmenter (Japanese, Chinese) milliseconds per weak search.
  let budget = SURFACE_SCAN_CHARS;
  for (const text of texts) {
    if (budget <= 0) break;
    const read = text.slice(0, budget);
    budget -= read.length;
    for (const word of analyzer.words(read, { spacedOnly: true })) {
      const stem = analyzer.termOf(word);
      if (stem === undefined || !pending.has(stem)) continue;
      let forms = counts.get(stem);
      if (!forms) {
        forms = new Map();
        counts.set(stem, forms);
      }
      forms.set(word, (forms.get(word) ?? 0) + 1);
    }
  }
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
