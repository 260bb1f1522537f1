import type * as z from "zod";
import { ENV_VAR_NAME } from "../llm/provider-config.js";
import { fitText } from "../text-clip.js";
import { closestKey } from "./closest-key.js";
import { allKeyPaths, keysAt } from "./schema-keys.js";

// Turns zod issues into one line each: `<file>: <key path>: <what is wrong>, got <value>`.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_VALUE_CHARS = 60;

/** `knowledge.collections["Hand Book"].paths[0]`; the empty path is the top level. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(String(segment))) out += out === "" ? String(segment) : `.${String(segment)}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out === "" ? "(top level)" : out;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * The offending value, short. Secrets must not be echoed into logs: header values, and an
 * apiKeyEnv that is not an env var name (most likely the key itself pasted in), are redacted.
 */
export function showValue(value: unknown, path: readonly PropertyKey[]): string {
  if (value === undefined) return "nothing";
  const inHeaders = path.includes("headers") && path[path.length - 1] !== "headers";
  const pastedKey =
    path[path.length - 1] === "apiKeyEnv" && typeof value === "string" && !ENV_VAR_NAME.test(value);
  if (inHeaders || pastedKey) return `<redacted ${describeType(value)}>`;
  const json = JSON.stringify(value) ?? String(value);
  const text = fitText(json, MAX_VALUE_CHARS);
  return typeof value === "object" && value !== null ? `${describeType(value)} ${text}` : text;
}

const EXPECTED_NAMES: Record<string, string> = { int: "an integer", object: "an object", array: "an array" };

function unknownKeyLine(schema: z.core.$ZodType, objectPath: PropertyKey[], key: string): string {
  const fullPath = formatKeyPath([...objectPath, key]);
  const valid = keysAt(schema, objectPath) ?? [];
  const near = closestKey(key, valid);
  if (near !== undefined) return `${fullPath}: unknown key; did you mean "${near}"?`;
  // A valid key put at the wrong level (`retryBudget` at the top) is a common slip: point to it.
  const elsewhere = allKeyPaths(schema).find((p) => p[p.length - 1]?.toLowerCase() === key.toLowerCase());
  if (elsewhere !== undefined) return `${fullPath}: unknown key here; did you mean "${elsewhere.join(".")}"?`;
  return `${fullPath}: unknown key (valid keys here: ${valid.join(", ")})`;
}

function bound(
  issue: { origin?: string; minimum?: unknown; maximum?: unknown; inclusive?: boolean },
  min: boolean,
) {
  const limit = String(min ? issue.minimum : issue.maximum);
  const op = min ? (issue.inclusive ? ">=" : ">") : issue.inclusive ? "<=" : "<";
  if (issue.origin === "array") return `needs ${min ? "at least" : "at most"} ${limit} item(s)`;
  if (issue.origin === "string") return `must have ${op} ${limit} character(s)`;
  return `must be ${op} ${limit}`;
}

/** Zod's own text for a check we gave a message for, or our phrasing for its generic ones. */
function ownOrGeneric(message: string, generic: string): string {
  return /^(Too small|Too big|Invalid)/.test(message) ? generic : message;
}

function issueLine(issue: z.core.$ZodIssue, data: unknown): string {
  const path = issue.path as PropertyKey[];
  const where = formatKeyPath(path);
  const value = valueAt(data, path);
  const got = `got ${showValue(value, path)}`;
  switch (issue.code) {
    case "invalid_type": {
      if (value === undefined) return `${where}: required but missing`;
      const expected = EXPECTED_NAMES[issue.expected] ?? issue.expected;
      if (path.length === 0) return `${where}: expected a JSON object, ${got}`;
      return `${where}: expected ${expected}, ${got}`;
    }
    case "invalid_value": {
      const options = issue.values.map((v) => JSON.stringify(v)).join(" | ");
      const near = typeof value === "string" ? closestKey(value, issue.values.map(String)) : undefined;
      const suggestion = near !== undefined ? `; did you mean "${near}"?` : "";
      return `${where}: expected one of ${options}, ${got}${suggestion}`;
    }
    case "invalid_key": {
      const inner = issue.issues[0]?.message ?? "invalid name";
      const name = String(path[path.length - 1]);
      return `${where}: invalid name ${JSON.stringify(name)}: ${inner}`;
    }
    case "too_small":
      return `${where}: ${ownOrGeneric(issue.message, bound(issue, true))}, ${got}`;
    case "too_big":
      return `${where}: ${ownOrGeneric(issue.message, bound(issue, false))}, ${got}`;
    case "invalid_format":
      return `${where}: ${ownOrGeneric(issue.message, `must be a valid ${issue.format}`)}, ${got}`;
    default:
      return value === undefined ? `${where}: ${issue.message}` : `${where}: ${issue.message}, ${got}`;
  }
}

/** One line per problem, each prefixed with the file; unknown keys get one line per key. */
export function formatIssues(
  issues: readonly z.core.$ZodIssue[],
  data: unknown,
  file: string,
  schema: z.core.$ZodType,
): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        lines.push(`${file}: ${unknownKeyLine(schema, issue.path as PropertyKey[], key)}`);
    } else {
      lines.push(`${file}: ${issueLine(issue, data)}`);
    }
  }
  return lines;
}
