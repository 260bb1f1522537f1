import { errorMessage } from "../errors.js";
import { BotConfigError } from "./config-error.js";

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
