// The providers' secrets: the API key and secret-looking extra headers. The scrubbing rule
// itself (scrub before any cut, including a key cut by a bounded read) is src/secret-text.ts,
// shared with the knowledge backends and the hosts.

export { quoteScrubbed, scrubSecrets } from "../secret-text.js";

/** Secret-looking header values of a provider's extra headers (Authorization, *key*, *token*). */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  if (!headers) return [];
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (/authorization|key|token|secret/i.test(name)) {
      values.push(value);
      // `Bearer abc` → also match the bare token.
      const bare = value.replace(/^\s*(bearer|basic|token)\s+/i, "");
      if (bare !== value) values.push(bare);
    }
  }
  return values;
}

/** How much of a provider's own words (an error body, a stream or session error) an error message quotes. */
export const MAX_QUOTED_CHARS = 300;
