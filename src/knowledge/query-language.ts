// The language of a query, for the corrective pass's language-mismatch rule
// (protocol/weakness.ts isLanguageMismatch): the same detector the analysis uses for "auto"
// collections (`eld`, its "small" data set, loaded on first use and shared with
// knowledge/analysis/detect.ts), but with every language's score, since the rule compares the
// guess with the documents' own language rather than trusting the guess alone.
import type { QueryLanguageGuess } from "../protocol/weakness.js";
import { languageOf } from "./analysis/registry.js";

export type QueryLanguageGuesser = (query: string) => QueryLanguageGuess | undefined;

/** A query is read up to this length: a question's language shows long before. */
const MAX_QUERY_SAMPLE_CHARS = 1_000;

let loading: Promise<QueryLanguageGuesser> | undefined;

/** The guesser, loaded once per process; a detector that fails to load guesses nothing. */
export function queryLanguageGuesser(): Promise<QueryLanguageGuesser> {
  loading ??= import("eld/small").then(
    ({ eld }): QueryLanguageGuesser =>
      (query) => {
        const sample = query.slice(0, MAX_QUERY_SAMPLE_CHARS);
        if (!/\p{L}/u.test(sample)) return undefined;
        const result = eld.detect(sample);
        // eld names Norwegian "no"; the registry maps it (and every other code) to a supported tag.
        const profile = result.language ? languageOf(result.language) : undefined;
        if (!profile) return undefined;
        const scores: Record<string, number> = {};
        for (const [code, score] of Object.entries(result.getScores())) {
          const tag = languageOf(code)?.tag;
          if (tag !== undefined && Number.isFinite(score)) scores[tag] = Math.max(scores[tag] ?? 0, score);
        }
        return { tag: profile.tag, name: profile.name, reliable: result.isReliable(), scores };
      },
    (): QueryLanguageGuesser => () => undefined,
  );
  return loading;
}
