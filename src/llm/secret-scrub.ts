// Keys must never reach a log line or an error message. Our own messages never include them,
// but a provider's error body may echo what it was sent (some print the key they rejected), and
// that body is quoted in the error. Every quoted text is passed through here first.

import { oneLine } from "../text-clip.js";

const REDACTED = "[redacted]";
/** Values this short are not secrets worth matching (and would blank ordinary words). */
const MIN_SECRET_CHARS = 6;

/** `text` with every occurrence of each secret (and of its Bearer form) replaced. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length < MIN_SECRET_CHARS) continue;
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

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

/** How much of a provider's own words an error message quotes. */
export const MAX_QUOTED_CHARS = 300;

/**
 * Text from a provider (an error body, a stream error, a session error) as one line fit to
 * quote in an error: secrets scrubbed FIRST, then whitespace collapsed and the line cut. Cutting
 * first would let a key straddling the cut survive as a prefix no longer equal to the key.
 */
export function quoteScrubbed(
  text: string,
  secrets: readonly (string | undefined)[],
  maxChars = MAX_QUOTED_CHARS,
): string {
  return oneLine(scrubSecrets(String(text), secrets), maxChars);
}
