// Which addresses a hit, a document or an answer may link to. Addresses come from untrusted text
// (a document's front matter or canonical link, a collection's template, a model's answer), so
// only a bounded http(s) URL without whitespace or a user name and password is kept, normalised
// by the WHATWG parser (which percent-encodes quotes and angle brackets); anything else
// (javascript:, file:, data:, junk) is dropped.

/** Longer addresses are not links people follow; they are dropped. */
export const MAX_URL_CHARS = 2_000;

/** The address if it is a bounded http(s) URL, normalised; undefined otherwise. */
export function safeHttpUrl(candidate: string | undefined): string | undefined {
  if (candidate === undefined) return undefined;
  const trimmed = candidate.trim();
  if (trimmed.length > MAX_URL_CHARS || !/^https?:\/\/\S+$/i.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    if (url.username || url.password) return undefined;
    return url.href.length > MAX_URL_CHARS ? undefined : url.href;
  } catch {
    return undefined;
  }
}
