import { errorMessage } from "../errors.js";
import { BotConfigError } from "./config-error.js";
import { formatKeyPath } from "./format-issues.js";

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** A likely cause for the most common hand-editing mistakes, judged from the offending character. */
function hint(text: string, offset: number): string {
  const char = text[offset];
  if (char === "/" || char === "#") return " (comments are not allowed in config.json)";
  if (char === "'") return " (JSON strings need double quotes)";
  if (char === "}" || char === "]") {
    const before = text.slice(0, offset).trimEnd();
    if (before.endsWith(",")) return " (trailing comma)";
  }
  return "";
}

/**
 * JSON.parse with errors that name the file, line and column. Node 20 reports only a character
 * position (newer versions add line/column in varying formats), so the position is converted here.
 */
export function parseJsonText(text: string, file: string): unknown {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (body.trim() === "")
    throw new BotConfigError(file, [`${file}: the file is empty (expected a JSON object)`]);
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = errorMessage(error);
    const match = /at position (\d+)/.exec(message);
    const offset = match ? Number(match[1]) : body.length;
    const { line, column } = lineAndColumn(body, offset);
    const detail = message
      .replace(/\s*\(line \d+ column \d+\)/, "")
      .replace(/\s*in JSON at position \d+/, "");
    // At the very end V8 names the token it wanted; "ends too early" is what the user needs.
    const reason =
      offset >= body.length
        ? "unexpected end of file (a missing closing bracket or brace?)"
        : detail.charAt(0).toLowerCase() + detail.slice(1);
    throw new BotConfigError(file, [
      `${file}: invalid JSON at line ${line}, column ${column}: ${reason}${hint(body, offset)}`,
    ]);
  }
}

/** Deeper than any key config.json has (its deepest holds about 6 levels). */
export const MAX_CONFIG_DEPTH = 32;

/**
 * What no config.json holds, refused before the schema reads it, each with the file and the
 * key named: nesting deeper than MAX_CONFIG_DEPTH (the checks and messages after it recurse over
 * the value, and would overflow the stack rather than say where), and a NUL character in a key
 * or a string (no path, name or value holds one; a path with one reaches Node's file functions,
 * which refuse it without naming the key). The walk is iterative, so depth costs no stack.
 */
export function checkJsonShape(data: unknown, file: string): void {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: data, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      if (value.includes("\u0000"))
        throw shapeError(
          file,
          path,
          "contains a NUL character (\\u0000), which no path, name or value may hold",
        );
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_CONFIG_DEPTH) {
      throw shapeError(
        file,
        path,
        `nested more than ${MAX_CONFIG_DEPTH} levels deep; no key of config.json is`,
      );
    }
    const entries: [PropertyKey, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [i, item])
      : Object.entries(value);
    for (const [key, item] of entries) {
      const at = [...path, key];
      if (typeof key === "string" && key.includes("\u0000")) {
        throw shapeError(file, at, "the key contains a NUL character (\\u0000)");
      }
      stack.push({ value: item, path: at });
    }
  }
}

function shapeError(file: string, path: readonly PropertyKey[], what: string): BotConfigError {
  return new BotConfigError(file, [`${file}: ${formatKeyPath(path)}: ${what}`]);
}
