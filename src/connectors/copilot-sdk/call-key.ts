// The hook input carries no tool call id, so a hook invocation is tied to its call through what
// both sides do carry: the bare tool name and the arguments. Arguments are canonicalised (keys
// sorted at every level) because the two sides need not serialise them in the same key order,
// then hashed so a 100 KB argument blob costs one hash, not a 100 KB map key.

import { createHash } from "node:crypto";
import { parseToolName } from "./tool-name.js";

/** Bound on nesting, so a hostile argument object cannot blow the stack. */
const MAX_DEPTH = 64;

function canonical(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((v) => canonical(v, depth + 1));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = canonical((value as Record<string, unknown>)[key], depth + 1);
    }
    return out;
  }
  return value;
}

/** JSON with object keys sorted at every level; `undefined` becomes `null`. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value, 0)) ?? "null";
}

/** The matching key of one tool call: bare tool name + hash of the canonical arguments. */
export function toolCallKey(toolName: string, args: unknown): string {
  const bare = parseToolName(toolName).tool;
  let json: string;
  try {
    json = canonicalJson(args);
  } catch {
    // A value JSON cannot express (a BigInt, a cycle past the depth bound): match on the name only.
    json = "?";
  }
  return `${bare}\u0000${createHash("sha256").update(json).digest("base64url")}`;
}
