// Models asked for "only a JSON object" still wrap it in a code fence, put a sentence before
// it, or add one after. This finds the JSON they meant, in order: the whole text; the inside
// of the first code fence; the first balanced {…} or […] (string-aware bracket counting),
// retrying from the next opening bracket when a candidate does not parse. Linear and bounded:
// the input is capped, and so is the number of candidates tried, each scanned at most once.

/** Longer model output is cut here before it is searched (a grader reply is a few hundred). */
export const MAX_JSON_INPUT_CHARS = 256 * 1024;
/** Balanced candidates tried before giving up. */
const MAX_CANDIDATES = 16;
const NOT_JSON = Symbol("not JSON");

/** The first JSON value found in `text` (an object or array, or a whole-text scalar), else undefined. */
export function extractJson(text: unknown): unknown {
  if (typeof text !== "string") return undefined;
  const trimmed = text.slice(0, MAX_JSON_INPUT_CHARS).trim();
  for (const candidate of [trimmed, fenceContent(trimmed)]) {
    const value = parsed(candidate);
    if (value !== NOT_JSON) return value;
  }
  const opening = /[[{]/g;
  for (let tries = 0; tries < MAX_CANDIDATES; tries++) {
    const start = opening.exec(trimmed)?.index;
    if (start === undefined) return undefined;
    // A candidate that never closes or does not parse: look again from just after its bracket.
    const end = balancedEnd(trimmed, start);
    const value = end < 0 ? NOT_JSON : parsed(trimmed.slice(start, end + 1));
    if (value !== NOT_JSON) return value;
  }
  return undefined;
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

function parsed(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : NOT_JSON;
  } catch {
    return NOT_JSON;
  }
}

/** The text between the first ``` fence (its language tag dropped) and the next one. */
function fenceContent(text: string): string | undefined {
  const open = text.indexOf("```");
  const lineEnd = open < 0 ? -1 : text.indexOf("\n", open + 3);
  if (lineEnd < 0) return undefined;
  const close = text.indexOf("```", lineEnd + 1);
  return text.slice(lineEnd + 1, close < 0 ? text.length : close).trim();
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
