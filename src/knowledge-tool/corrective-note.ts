// The text a corrective pass adds to a result (docs/design.md §4): a separator, one note line
// saying what was done and why, then the new hits — or, when the documents do not appear to
// cover the question, that one line alone. The original body stays byte-for-byte.

import { fitText } from "../text-clip.js";
import type { Verdict } from "../types.js";
import { joinNames } from "./collection-languages.js";
import { stripTrailingFooter } from "./footer.js";
import { toSingleLine } from "./untrusted-text.js";

/** Every re-query note line starts with this; the text-signal scanner looks for it. */
export const CORRECTIVE_NOTE_START = "[corrective retrieval — re-query #";
/** The one line saying the documents do not appear to cover the question starts with this. */
export const NOT_COVERED_NOTE_START = "[corrective retrieval — not covered: ";
/**
 * The line saying the rescue found nothing better, where nothing says the documents lack the
 * subject (no model judged so, and every query word is in some document), starts with this.
 */
export const NO_BETTER_MATCH_NOTE_START = "[corrective retrieval — no better match: ";
/** The line saying a query is in another language than the documents it searched starts with this. */
export const LANGUAGE_NOTE_START = "[corrective retrieval — language: ";
/** Bounds that keep the not-covered line one short line whatever the grader or query says. */
const MAX_NOTE_REASON_CHARS = 160;
const MAX_NOTE_TERMS = 5;
const MAX_NOTE_TERM_CHARS = 40;
const MAX_NOTE_QUERY_CHARS = 120;
/** Put between the results above and the note. */
export const CORRECTION_SEPARATOR = "\n\n---\n";

export interface RequeryNote {
  /** 1 for the first re-query of this search, 2 for the second. */
  n: number;
  /** The grade that triggered the re-query. */
  verdict: Verdict;
  reason: string;
  query: string;
  /** Further queries run alongside `query` and fused with it (rescue candidates). */
  alsoQueries?: readonly string[];
  /** A hypothetical answer passage was searched as well (query expansion). */
  expanded?: boolean;
  /** The collections searched; empty or absent means all the bot may search. */
  collections?: readonly string[];
  /** New hits appended below (after dedupe against the results above). */
  added: number;
}

/**
 * `[corrective retrieval — re-query #N: prior results graded "<verdict>" (<reason>); re-searched
 * "<q>" in collection c; K additional result(s) below, deduped against the results above]`.
 */
export function renderRequeryNote(note: RequeryNote): string {
  const collections = note.collections ?? [];
  const scope =
    collections.length === 0
      ? ""
      : collections.length === 1
        ? ` in collection ${collections[0]}`
        : ` in collections ${collections.join(", ")}`;
  const noun = note.added === 1 ? "result" : "results";
  const queries = [note.query, ...(note.alsoQueries ?? [])].map(
    (q) => `"${fitText(toSingleLine(q), note.alsoQueries?.length ? MAX_NOTE_QUERY_CHARS : Infinity)}"`,
  );
  const searched = joinNames(queries);
  const expansion = note.expanded ? " (with a hypothetical answer passage)" : "";
  const fused = queries.length > 1 || note.expanded ? ", fused" : "";
  return (
    `${CORRECTIVE_NOTE_START}${note.n}: prior results graded "${note.verdict}" (${toSingleLine(note.reason)}); ` +
    `re-searched ${searched}${expansion}${toSingleLine(scope)}${fused}; ${note.added} additional ${noun} below, ` +
    "deduped against the results above]"
  );
}

export interface NotCoveredNote {
  /** Why: the grader's reason, or what the rescue found. */
  reason: string;
  /** Query words no document contains (named in the line, the first few). */
  terms?: readonly string[];
}

/**
 * `[corrective retrieval — not covered: the documents do not appear to cover this question
 * (<reason>); no document contains "a", "b"]`: one line, bounded (about 300 characters at most).
 */
export function renderNotCoveredNote(note: NotCoveredNote): string {
  const terms = (note.terms ?? [])
    .map((t) => fitText(toSingleLine(t), MAX_NOTE_TERM_CHARS))
    .filter((t) => t !== "")
    .slice(0, MAX_NOTE_TERMS);
  const missing = terms.length > 0 ? `; no document contains ${terms.map((t) => `"${t}"`).join(", ")}` : "";
  const reason = fitText(toSingleLine(note.reason), MAX_NOTE_REASON_CHARS);
  return `${NOT_COVERED_NOTE_START}the documents do not appear to cover this question (${reason})${missing}]`;
}

/**
 * `[corrective retrieval — no better match: <reason>; the results above are the closest the search
 * found]`: one line, bounded. It claims no more than the signal knows: the results scored low and
 * the re-queries scored no higher.
 */
export function renderNoBetterMatchNote(reason: string): string {
  const why = fitText(toSingleLine(reason), MAX_NOTE_REASON_CHARS);
  return `${NO_BETTER_MATCH_NOTE_START}${why}; the results above are the closest the search found]`;
}

export interface LanguageNote {
  /** The query's language, by name ("German"). */
  queryLanguage: string;
  /** The searched collections, each with its language ("docs (English)"). */
  collections: string;
  /** The documents' language(s), by name ("English"). */
  documentLanguage: string;
}

/**
 * `[corrective retrieval — language: the query is in German, but the documents searched (docs
 * (English)) are in English; search again with English words]`: one line, bounded.
 */
export function renderLanguageNote(note: LanguageNote): string {
  const query = fitText(toSingleLine(note.queryLanguage), MAX_NOTE_TERM_CHARS);
  const documents = fitText(toSingleLine(note.documentLanguage), MAX_NOTE_QUERY_CHARS);
  const collections = fitText(toSingleLine(note.collections), MAX_NOTE_REASON_CHARS);
  return (
    `${LANGUAGE_NOTE_START}the query is in ${query}, but the documents searched (${collections}) are in ` +
    `${documents}; search again with ${documents} words]`
  );
}

/** `currentBody` (its stale weak footer stripped, right-trimmed) + `\n\n---\n` + the note line. */
export function appendNote(currentBody: string, note: string): string {
  return `${stripTrailingFooter(currentBody)}${CORRECTION_SEPARATOR}${note}`;
}

/**
 * `currentBody` (its stale weak footer stripped, right-trimmed) + `\n\n---\n` + note + `\n\n` +
 * `newHitsText`. Peel the trace marker before and re-append it after. `newHitsText` is the new
 * hits in the original's mode (renderHits), followed by the re-query's own footer after a blank
 * line when it has one, so the next grading pass sees the latest search's verdict.
 */
export function appendCorrection(currentBody: string, note: string, newHitsText: string): string {
  return `${stripTrailingFooter(currentBody)}${CORRECTION_SEPARATOR}${note}\n\n${newHitsText}`;
}
