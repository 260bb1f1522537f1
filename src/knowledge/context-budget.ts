// How much body text a full-mode search spends on each hit. A search result is read by a model
// whose context is shared with the conversation: the text goes to the hits most likely to
// answer, the rest are shown by their header and a short opening, and a cut body says how to
// read the rest (get_document). Only the embedded engine's hits are cut; a Huginn server's
// response is rendered as it arrives.
import type { Hit } from "../types.js";

/** Body characters for the hits at ranks 1, 2, 3; every later hit gets {@link LATER_HIT_CHARS}. */
export const LEADING_HIT_CHARS = [1_400, 900, 600] as const;
export const LATER_HIT_CHARS = 200;
/** Said where a body was cut, so the model knows the text goes on and how to read it. */
export const CUT_NOTE = "… [cut: get_document with this doc_id returns the whole document]";

export function bodyBudgetAt(rank: number): number {
  return LEADING_HIT_CHARS[rank] ?? LATER_HIT_CHARS;
}

/**
 * The hit with its chunks cut to `budget` characters of content in order (a chunk that does not
 * fit is cut at a sentence end or word boundary; later chunks are dropped) and the cut note at
 * the end of the last kept chunk. A hit that fits is returned unchanged.
 */
export function withinBudget(hit: Hit, budget: number): Hit {
  const chunks = hit.chunks;
  if (!chunks?.length) return hit;
  const total = chunks.reduce((sum, c) => sum + c.content.length, 0);
  if (total <= budget) return hit;
  const kept: NonNullable<Hit["chunks"]> = [];
  let left = budget;
  for (const chunk of chunks) {
    if (left <= 0) break;
    if (chunk.content.length <= left) {
      kept.push(chunk);
      left -= chunk.content.length;
      continue;
    }
    kept.push({ ...chunk, content: cutText(chunk.content, left) });
    left = 0;
  }
  const last = kept[kept.length - 1]!;
  kept[kept.length - 1] = { ...last, content: `${last.content.trimEnd()} ${CUT_NOTE}` };
  return { ...hit, chunks: kept };
}

/** At most `limit` characters: up to the last sentence end in its second half, else the last space. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const window = text.slice(0, limit);
  const sentence = Math.max(window.lastIndexOf(". "), window.lastIndexOf(".\n"));
  if (sentence >= limit / 2) return window.slice(0, sentence + 1);
  const space = window.lastIndexOf(" ");
  return space > 0 ? window.slice(0, space) : window;
}
