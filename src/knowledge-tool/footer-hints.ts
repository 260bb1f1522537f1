// Retry hints read back from a footer line. Only ever given the trailing footer (see
// extractTrailingFooter): a document must not be able to steer a re-query.
import type { RetryHints } from "../types.js";
import {
  BIT_SEPARATOR,
  classifyFooterLine,
  NO_CONFIDENT_MATCH,
  TRY_SEPARATOR,
  WEAK_MATCH,
} from "./footer.js";

const RELATED = "related terms: ";
const NARROWER = 'narrower query: "';
const BROADER = 'broader query: "';

/**
 * The hints in a weak or no-confident footer line; `{}` for anything else (a rescue marker, our
 * bare `*Weak match.*`, a line that is not a footer). Strategies are not in the text, so they
 * are never set.
 *
 * The bits always come in the order related terms · narrower · broader, and queries are written
 * between double quotes without escaping, so a query may itself contain `"` or ` · `. We split:
 * - related terms end at the first ` · narrower query: "` or ` · broader query: "`, and are
 *   split on `, ` (a term containing `, ` cannot be told apart and is split);
 * - the narrower query ends at the LAST `" · broader query: "` (or at the closing quote), so it
 *   may contain quotes and ` · `; a narrower query that itself contains `" · broader query: "`
 *   is the one case we cannot recover and is split there;
 * - the broader query runs to the closing quote before the final `*`.
 * A query bit without its closing quote (a truncated footer) is dropped.
 */
export function parseFooterHints(footer: string): RetryHints {
  const line = footer.trim();
  const kind = classifyFooterLine(line);
  if (kind !== "weak" && kind !== "no-confident") return {};
  // The hints start right after `*<prefix> — try: `; any other wording carries none.
  const tryAt = 1 + (kind === "weak" ? WEAK_MATCH : NO_CONFIDENT_MATCH).length;
  if (!line.startsWith(TRY_SEPARATOR, tryAt)) return {};
  let rest = line.slice(tryAt + TRY_SEPARATOR.length, -1); // without the closing `*`
  const hints: RetryHints = {};

  if (rest.startsWith(RELATED)) {
    const end = firstOf(rest, [BIT_SEPARATOR + NARROWER, BIT_SEPARATOR + BROADER]);
    const terms = rest
      .slice(RELATED.length, end < 0 ? rest.length : end)
      .split(", ")
      .map((term) => term.trim())
      .filter((term) => term !== "");
    if (terms.length > 0) hints.relatedTerms = terms;
    rest = end < 0 ? "" : rest.slice(end + BIT_SEPARATOR.length);
  }

  if (rest.startsWith(NARROWER)) {
    const boundary = rest.lastIndexOf(`"${BIT_SEPARATOR}${BROADER}`);
    if (boundary >= NARROWER.length) {
      setQuery(hints, "narrowerQuery", rest.slice(NARROWER.length, boundary + 1));
      rest = rest.slice(boundary + 1 + BIT_SEPARATOR.length);
    } else {
      setQuery(hints, "narrowerQuery", rest.slice(NARROWER.length));
      rest = "";
    }
  }

  if (rest.startsWith(BROADER)) setQuery(hints, "broaderQuery", rest.slice(BROADER.length));
  return hints;
}

// `quoted` is the query followed by its closing quote; a missing quote means a truncated bit.
function setQuery(hints: RetryHints, key: "narrowerQuery" | "broaderQuery", quoted: string): void {
  if (!quoted.endsWith('"')) return;
  const query = quoted.slice(0, -1).trim();
  if (query !== "") hints[key] = query;
}

function firstOf(text: string, needles: string[]): number {
  let best = -1;
  for (const needle of needles) {
    const at = text.indexOf(needle);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}
