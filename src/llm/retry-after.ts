// How long a provider asks us to wait before the next attempt. `Retry-After` is either whole
// seconds or an HTTP date (RFC 9110 §10.2.3); OpenAI and Azure also send `retry-after-ms`,
// which is more precise and wins when both are present.

type HeaderValue = string | string[] | undefined;

function first(value: HeaderValue): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === "string" ? text.trim() : undefined;
}

/** Milliseconds to wait, or undefined when the headers say nothing usable. Never negative. */
export function retryAfterMs(
  headers: Record<string, HeaderValue>,
  now: number = Date.now(),
): number | undefined {
  const ms = first(headers["retry-after-ms"]);
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.max(0, Math.ceil(Number(ms)));
  const value = first(headers["retry-after"]);
  if (value === undefined || value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.max(0, Math.ceil(Number(value) * 1000));
  // An HTTP date is about 30 characters and names its day and month (`Thu, 01 Jan 2026 …`); a
  // longer value, or one without letters ("-1", which Date.parse takes for a year), is not one.
  if (value.length > 64 || !/[A-Za-z]{3}/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
