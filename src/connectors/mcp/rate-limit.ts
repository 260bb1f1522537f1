// Requests each token may make over HTTP: a token bucket per grant, `perMinute` deep and refilled
// at `perMinute` a minute, so a client may burst up to a minute's worth and then keeps to the
// rate. A refused request learns when the next one would be allowed (Retry-After, in seconds).
// A request may cost more than one: each call of a JSON-RPC batch counts (serve-http.ts).

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes `cost` (default 1) from `key`'s bucket, all or nothing. */
  take(key: string, now?: number, cost?: number): RateDecision;
}

/** Above this many tokens tracked, buckets that have filled up again are forgotten. */
const SWEEP_ABOVE = 1_000;

export function rateLimiter(perMinute: number): RateLimiter {
  if (!Number.isFinite(perMinute) || perMinute <= 0)
    throw new RangeError(`perMinute must be > 0, got ${perMinute}`);
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, now = performance.now(), cost = 1) {
      if (buckets.size > SWEEP_ABOVE) {
        for (const [k, b] of buckets) if (b.tokens + (now - b.at) * perMs >= perMinute) buckets.delete(k);
      }
      const bucket = buckets.get(key) ?? { tokens: perMinute, at: now };
      bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * perMs);
      bucket.at = now;
      if (bucket.tokens >= cost) {
        bucket.tokens -= cost;
        buckets.set(key, bucket);
        return { allowed: true, retryAfterSeconds: 0 };
      }
      buckets.set(key, bucket);
      return {
        allowed: false,
        retryAfterSeconds: Math.max(
          1,
          Math.ceil((Math.min(cost, perMinute) - bucket.tokens) / perMs / 1_000),
        ),
      };
    },
  };
}
