import { editDistance } from "../edit-distance.js";

/**
 * The candidate closest to `key`, or undefined when none is close enough to be a plausible typo.
 * Case is ignored (`RetryBudget` → `retryBudget`); the threshold grows with the key's length so
 * a long camelCase key may carry two or three slips while `foo` does not match `url`.
 */
export function closestKey(key: string, candidates: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(key.length / 4)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
