// Reading a JSON object out of model text, with the shared leniency of docs/reference/vectorless-strategies.md §11: a
// leading code fence is dropped, prose before the first `{` is cut, and only the first JSON
// value counts (a model that writes two actions gets the first one). Written here rather than
// shared with src/llm because these rules are the strategies' contract, tested against docs/reference/vectorless-strategies.md §12.

/** Model text beyond this is not read (a strategy reply is at most a few thousand chars). */
export const MAX_MODEL_TEXT_CHARS = 256 * 1024;

export type JsonRead =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; empty: boolean; error: string };

/** The first JSON object in the text. `empty` tells a blank reply from an unreadable one. */
export function readJsonObject(raw: unknown): JsonRead {
  if (typeof raw !== "string") return { ok: false, empty: true, error: "no text" };
  let text = (raw.length > MAX_MODEL_TEXT_CHARS ? raw.slice(0, MAX_MODEL_TEXT_CHARS) : raw).trim();
  if (text === "") return { ok: false, empty: true, error: "empty reply" };
  if (text.startsWith("```")) {
    const newline = text.indexOf("\n");
    text = newline < 0 ? "" : text.slice(newline + 1);
    const close = text.lastIndexOf("```");
    if (close >= 0) text = text.slice(0, close);
    text = text.trim();
  }
  const start = text.indexOf("{");
  if (start < 0) return { ok: false, empty: false, error: "no JSON object in the reply" };
  const end = closingBrace(text, start);
  if (end < 0) return { ok: false, empty: false, error: "unterminated JSON object" };
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, empty: false, error: "not a JSON object" };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, empty: false, error: `invalid JSON: ${(error as Error).message}` };
  }
}

/** Index of the `}` closing the `{` at `start` (string- and escape-aware), or -1. Linear. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return c === 125 ? i : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** A trimmed non-empty string, else undefined. */
export function stringField(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** A finite number, or a numeric string; else undefined. */
export function numberField(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
