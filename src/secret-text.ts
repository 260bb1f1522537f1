// Keys must never reach a log line, an error message or a tool result. Our own messages never
// include them, but a server's reply may echo what it was sent (some print the key they
// rejected), and that reply is quoted. Every quoted text is scrubbed here BEFORE it is cut: a cut
// through a key leaves a prefix that no longer equals the key and would survive a later scrub.
// A text that was already cut where it was read (a bounded read of a reply) may end in such a
// prefix; `truncated` says so, and that tail is scrubbed too.

import { oneLine } from "./text-clip.js";

export const REDACTED = "[redacted]";
/** Values this short are not secrets worth matching (and would blank ordinary words). */
const MIN_SECRET_CHARS = 6;

export interface ScrubOptions {
  /**
   * The text was cut at its end before it got here (a bounded read): a tail that begins a
   * secret, however short, is a cut key and is replaced as well.
   */
  truncated?: boolean;
}

/** `text` with every occurrence of each secret replaced (and, if truncated, a tail that starts one). */
export function scrubSecrets(
  text: string,
  secrets: readonly (string | undefined)[],
  options: ScrubOptions = {},
): string {
  // Longest first: a secret holding another (a connection string and its password) goes whole.
  const usable = secrets
    .filter((secret): secret is string => typeof secret === "string" && secret.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of usable) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  if (!options.truncated) return out;
  // A cut inside a multi-byte character decodes to U+FFFD: part of the cut, not of the text.
  const body = out.replace(/\uFFFD+$/, "");
  let longest = 0;
  for (const secret of usable) {
    for (let k = Math.min(secret.length - 1, body.length); k > longest; k--) {
      if (body.endsWith(secret.slice(0, k))) {
        longest = k;
        break;
      }
    }
  }
  return longest > 0 ? `${body.slice(0, body.length - longest)}${REDACTED}` : out;
}

/**
 * A server's text (an error body, a stream error, a driver's message) as one line fit to quote:
 * secrets scrubbed first, then white space collapsed and the line cut at `maxChars`.
 */
export function quoteScrubbed(
  text: string,
  secrets: readonly (string | undefined)[],
  maxChars: number,
  options: ScrubOptions = {},
): string {
  return oneLine(scrubSecrets(String(text), secrets, options), maxChars);
}

/**
 * The secret a URL carries in itself: its password (raw and decoded). Not the user name: it is
 * no secret, and is often an ordinary word ("postgres") that scrubbing would blank everywhere.
 */
export function urlSecrets(url: string): string[] {
  try {
    const { password } = new URL(url);
    if (!password) return [];
    try {
      const decoded = decodeURIComponent(password);
      return decoded === password ? [password] : [password, decoded];
    } catch {
      return [password];
    }
  } catch {
    return [];
  }
}

/** A URL as it may be shown: without user name and password. */
export function urlWithoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = "";
    parsed.password = "";
    const shown = parsed.toString();
    // URL adds a "/" to a bare origin; keep the URL as it was written otherwise.
    return !url.endsWith("/") && shown.endsWith("/") && parsed.pathname === "/" ? shown.slice(0, -1) : shown;
  } catch {
    return url;
  }
}
