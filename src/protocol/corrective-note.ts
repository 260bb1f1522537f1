// The text a corrective re-query adds to a result (design §4, muninn §6): a separator, one note
// line saying what was done and why, then the new hits. The original body stays byte-for-byte.
import type { Verdict } from "../types.js";
import { stripTrailingFooter } from "./footer.js";
import { toSingleLine } from "./untrusted-text.js";

/** Every note line starts with this; the text-signal scanner looks for it. */
export const CORRECTIVE_NOTE_START = "[corrective retrieval — re-query #";
/** Put between the results above and the note. */
export const CORRECTION_SEPARATOR = "\n\n---\n";

export interface RequeryNote {
  /** 1 for the first re-query of this search, 2 for the second. */
  n: number;
  /** The grade that triggered the re-query. */
  verdict: Verdict;
  reason: string;
  query: string;
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
  return (
    `${CORRECTIVE_NOTE_START}${note.n}: prior results graded "${note.verdict}" (${toSingleLine(note.reason)}); ` +
    `re-searched "${toSingleLine(note.query)}"${toSingleLine(scope)}; ${note.added} additional ${noun} below, ` +
    "deduped against the results above]"
  );
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
