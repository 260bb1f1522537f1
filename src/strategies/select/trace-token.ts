// A stable fingerprint of one selection (docs/reference/vectorless-strategies.md §9.1): sha256 over the document, its
// version, the model and the prompt version, then the ids sorted, all NUL-separated, so the
// token does not depend on id order and ids containing commas cannot collide.
import { createHash } from "node:crypto";

export const SYSTEM_PROMPT_VERSION = "v1";

export function computeTraceToken(
  documentId: string,
  version: string,
  model: string,
  ids: readonly string[],
): string {
  const hash = createHash("sha256");
  hash.update([documentId, version, model, SYSTEM_PROMPT_VERSION].join("\0"));
  hash.update("\0");
  hash.update([...ids].sort().join("\0"));
  return hash.digest("hex");
}

/** Treewalk's page-based token: the same cited pages give the same token, whatever the path. */
export function pageTraceToken(
  documentId: string,
  model: string,
  ranges: readonly [number, number][],
): string {
  const ids = ranges.map(([s, e]) => `p:${s === e ? `${s}` : `${s}-${e}`}`);
  return computeTraceToken(documentId, "1-pages", `treewalk:${model}`, ids);
}
