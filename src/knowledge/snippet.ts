import { type Analyzer, isUnspacedScript } from "./analysis/analyzer.js";

const TARGET = 200;
const SENTENCE_MIN = 160;
const SENTENCE_MAX = 240;
/** Sections are bounded by the loaders, but a snippet never scans more than this. */
const MAX_SCAN = 20_000;

/**
 * A ~200-character snippet that starts at the sentence matching the query best (most distinct
 * query terms), cut as Huginn cuts: at the last sentence end between 160 and 240 characters
 * with no ellipsis, else at a word boundary with `…`.
 */
export function snippetFor(content: string, queryTerms: ReadonlySet<string>, analyzer: Analyzer): string {
  const text = content.slice(0, MAX_SCAN).replace(/\s+/g, " ").trim();
  return truncateSnippet(text.slice(bestSentenceStart(text, queryTerms, analyzer)));
}

export function truncateSnippet(text: string): string {
  if (text.length <= SENTENCE_MAX) return text;
  const window = text.slice(0, SENTENCE_MAX + 1);
  let cut = -1;
  const sentenceEnd = /[.!?](?=\s|$)/g;
  for (let m = sentenceEnd.exec(window); m; m = sentenceEnd.exec(window)) {
    if (m.index + 1 >= SENTENCE_MIN && m.index + 1 <= SENTENCE_MAX) cut = m.index + 1;
  }
  if (cut > 0) return text.slice(0, cut);
  const space = text.lastIndexOf(" ", TARGET);
  return `${text.slice(0, space > 0 ? space : TARGET).trimEnd()}…`;
}

function bestSentenceStart(text: string, queryTerms: ReadonlySet<string>, analyzer: Analyzer): number {
  if (!queryTerms.size) return 0;
  // Terms of scripts written without spaces are found in the text as written; only the other
  // terms need the sentence's words (segmenting Japanese or Chinese costs far more than a search).
  const unspaced = [...queryTerms].filter(isUnspacedScript);
  const spaced = unspaced.length === queryTerms.size ? undefined : queryTerms;
  let bestStart = 0;
  let bestHits = 0;
  let start = 0;
  // Sentence ends: Latin punctuation before a space, or the ideographic full stop and its kin.
  const boundary = /[.!?]\s+(?=\S)|[。！？]\s*(?=\S)/g;
  for (;;) {
    const m = boundary.exec(text);
    const end = m ? m.index + 1 : text.length;
    const sentence = text.slice(start, end);
    const seen = new Set<string>();
    if (unspaced.length) {
      const lower = sentence.toLowerCase();
      for (const t of unspaced) if (lower.includes(t)) seen.add(t);
    }
    if (spaced) {
      for (const w of analyzer.words(sentence)) {
        const t = analyzer.termOf(w);
        if (t !== undefined && spaced.has(t)) seen.add(t);
      }
    }
    if (seen.size > bestHits) {
      bestHits = seen.size;
      bestStart = start;
    }
    if (!m) break;
    start = m.index + m[0].length;
  }
  return bestStart;
}
