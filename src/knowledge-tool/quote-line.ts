import { clipText } from "../text-clip.js";
import type { Hit } from "../types.js";
import { toSingleLine } from "./untrusted-text.js";

/** Quotes longer than this are cut on the line (the hit's chunks carry the full text). */
const MAX_QUOTE_CHARS = 400;

/**
 * The verbatim supporting quote of a hit (`retrieval.answerSpans`), as the model reads it:
 * `Quote: "…"` on one line after the doc-id and pages lines. Only a quote found verbatim in the
 * document (offsets ≥ 0) is shown; a paraphrase the model offered is not evidence.
 */
export function renderQuoteLine(hit: Pick<Hit, "quote">): string | undefined {
  const quote = hit.quote;
  if (!quote || quote.start < 0 || typeof quote.text !== "string" || quote.text.trim() === "")
    return undefined;
  const text = toSingleLine(quote.text.trim());
  const shown = text.length > MAX_QUOTE_CHARS ? `${clipText(text, MAX_QUOTE_CHARS, "").trimEnd()}…` : text;
  return `Quote: "${shown}"`;
}
