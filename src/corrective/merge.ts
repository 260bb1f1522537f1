// Merging a re-query into the result the model will read (docs/design.md §4/§5): only hits not already
// shown (the original copy wins), rendered like the hits above, with the re-query's own footer
// when it was weak itself, so the next grading pass sees the latest search's verdict.
import { docKey } from "../knowledge-tool/doc-id-line.js";
import { renderFooter } from "../knowledge-tool/footer.js";
import { renderHits } from "../knowledge-tool/render.js";
import type { Hit, SearchResponse } from "../types.js";
import { isWeak } from "../weakness.js";

/**
 * The re-query's hits whose `collection/id` is neither in `known` nor `alreadyShown(hit)` (for
 * texts too large to index), each once, in the backend's order. Hits without a usable
 * collection or id are dropped; a missing title falls back to the id.
 */
export function selectFreshHits(
  results: readonly unknown[],
  known: ReadonlySet<string>,
  alreadyShown?: (hit: Hit) => boolean,
): Hit[] {
  const fresh: Hit[] = [];
  const seen = new Set<string>();
  for (const candidate of results) {
    if (candidate === null || typeof candidate !== "object") continue;
    const hit = candidate as Hit;
    if (typeof hit.collection !== "string" || hit.collection === "") continue;
    if (typeof hit.id !== "string" || hit.id === "") continue;
    const key = docKey(hit);
    if (known.has(key) || seen.has(key)) continue;
    seen.add(key);
    if (alreadyShown?.(hit)) continue;
    fresh.push(typeof hit.title === "string" && hit.title !== "" ? hit : { ...hit, title: hit.id });
  }
  return fresh;
}

/** The new hits (brief numbering from `startIndex`), then the re-query's footer if it was weak. */
export function renderAddition(
  fresh: readonly Hit[],
  response: SearchResponse,
  options: { brief: boolean; startIndex: number },
): string {
  const rendered = renderHits(fresh, options);
  const footer = isWeak(response) ? renderFooter(response) : "";
  return footer ? `${rendered}\n\n${footer}` : rendered;
}
