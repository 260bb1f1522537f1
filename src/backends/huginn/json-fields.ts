import { clipText } from "../../text-clip.js";
// Readers for fields of JSON a Huginn server sent. The server is not trusted to follow its own
// contract: a field of the wrong type reads as absent, strings are cut to a bound, lists are cut
// to a length, and nothing here throws. Cutting (not rejecting) keeps a usable hit usable when
// one field is oversized.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A string cut to `max` characters (with `…`), or undefined when not a non-empty string. */
export function boundedString(value: unknown, max: number): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return clipText(value, max);
}

/** A finite number clamped to 0..1, or undefined. */
export function unitNumber(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  return Math.min(1, Math.max(0, value));
}

/** At most `maxItems` non-empty strings, each cut to `maxChars`; undefined when none. */
export function boundedStrings(value: unknown, maxItems: number, maxChars: number): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const entry of value.slice(0, maxItems)) {
    const text = boundedString(entry, maxChars);
    if (text !== undefined) out.push(text);
  }
  return out.length > 0 ? out : undefined;
}

/**
 * Flat string metadata: at most `maxEntries` keys; strings, numbers and booleans become strings,
 * anything nested is dropped (Huginn's metadata values are scalars).
 */
export function boundedMetadata(
  value: unknown,
  maxEntries: number,
  maxChars: number,
): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  let count = 0;
  for (const key of Object.keys(value)) {
    if (count >= maxEntries) break;
    const raw = value[key];
    const text =
      typeof raw === "string"
        ? raw
        : typeof raw === "number" || typeof raw === "boolean"
          ? String(raw)
          : undefined;
    const name = boundedString(key, 100);
    // `__proto__` would be read as the object's prototype, not as a key.
    if (text === undefined || name === undefined || name === "__proto__") continue;
    out[name] = clipText(text, maxChars);
    count++;
  }
  return count > 0 ? out : undefined;
}
