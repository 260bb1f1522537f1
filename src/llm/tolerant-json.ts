// Models asked for "only a JSON object" still wrap it in a code fence, put a sentence before
// it, or add one after. This finds the JSON they meant, in order: the whole text; the inside
// of the first code fence; the first balanced {…} or […] (string-aware bracket counting),
// retrying from the next opening bracket when a candidate does not parse. Linear and bounded:
// the input is capped, and so is the number of candidates tried, each scanned at most once.

/** Longer model output is cut here before it is searched (a grader reply is a few hundred). */
export const MAX_JSON_INPUT_CHARS = 256 * 1024;
/** Balanced candidates tried before giving up. */
const MAX_CANDIDATES = 16;

/** The first JSON value found in `text` (an object or array, or a whole-text scalar), else undefined. */
export function extractJson(text: unknown): unknown {
  if (typeof text !== "string") return undefined;
  const input = text.length > MAX_JSON_INPUT_CHARS ? text.slice(0, MAX_JSON_INPUT_CHARS) : text;
  const trimmed = input.trim();
  if (trimmed === "") return undefined;
  const whole = tryParse(trimmed);
  if (whole.ok) return whole.value;

  const fenced = fenceContent(trimmed);
  if (fenced !== undefined) {
    const inside = tryParse(fenced);
    if (inside.ok) return inside.value;
  }
  return firstBalanced(trimmed);
}

/** The first JSON object in `text` (the first object element when the JSON is an array). */
export function extractJsonObject(text: unknown): Record<string, unknown> | undefined {
  const value = extractJson(text);
  if (isObject(value)) return value;
  if (Array.isArray(value)) return value.find(isObject);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  const c = text.charCodeAt(0);
  // Only texts that could be JSON are handed to the parser (prose never is).
  if (
    !(
      c === 123 ||
      c === 91 ||
      c === 34 ||
      c === 45 ||
      (c >= 48 && c <= 57) ||
      /^(true|false|null)$/.test(text)
    )
  ) {
    return { ok: false };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The text between the first ``` fence (its language tag dropped) and the next one. */
function fenceContent(text: string): string | undefined {
  const open = text.indexOf("```");
  if (open < 0) return undefined;
  const lineEnd = text.indexOf("\n", open + 3);
  if (lineEnd < 0) return undefined;
  const close = text.indexOf("```", lineEnd + 1);
  const inside = text.slice(lineEnd + 1, close < 0 ? text.length : close).trim();
  return inside === "" ? undefined : inside;
}

function firstBalanced(text: string): unknown {
  let from = 0;
  for (let tries = 0; tries < MAX_CANDIDATES; tries++) {
    const start = nextOpening(text, from);
    if (start < 0) return undefined;
    const end = balancedEnd(text, start);
    if (end < 0) {
      // Nothing from here on closes: a later opening bracket cannot close either, except
      // inside this one, so keep looking from just after it.
      from = start + 1;
      continue;
    }
    const parsed = tryParse(text.slice(start, end + 1));
    if (parsed.ok) return parsed.value;
    from = start + 1;
  }
  return undefined;
}

function nextOpening(text: string, from: number): number {
  const brace = text.indexOf("{", from);
  const bracket = text.indexOf("[", from);
  if (brace < 0) return bracket;
  if (bracket < 0) return brace;
  return Math.min(brace, bracket);
}

/** Index of the bracket closing the one at `start`, or -1. Strings and escapes are skipped. */
function balancedEnd(text: string, start: number): number {
  const stack: number[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) stack.push(c === 123 ? 125 : 93);
    else if (c === 125 || c === 93) {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
