// The worst requests one caller can send a `second-look mcp --http` server within its 1 MiB body
// limit: a tool call with tens of thousands of unknown argument names (each once cost an edit
// distance to every valid name and a place in the error message), and arguments nested hundreds
// of thousands of levels deep. For test/hostile/ and bench/mcp-hostile.bench.ts.

export const MIB = 1024 * 1024;

const call = (id: number, args: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"search_knowledge","arguments":${args}}}`;

/** A `tools/call` of `search_knowledge` whose arguments are a query and unknown keys, up to `bytes`. */
export function manyUnknownKeysCall(bytes = MIB - 1_024, id = 1): { body: string; keys: number } {
  const room = bytes - call(id, '{"query":"leave"}').length;
  const parts: string[] = [];
  let used = 0;
  for (let i = 0; ; i++) {
    const part = `,"u${i}":""`;
    if (used + part.length > room) break;
    parts.push(part);
    used += part.length;
  }
  return { body: call(id, `{"query":"leave"${parts.join("")}}`), keys: parts.length };
}

/** A `tools/call` whose `query` is arrays nested `depth` levels deep. */
export function deeplyNestedCall(depth: number, id = 1): string {
  return call(id, `{"query":${"[".repeat(depth)}${"]".repeat(depth)}}`);
}

/** A `tools/call` of `search_knowledge` with `count` unknown keys besides the query (a small body). */
export function unknownKeysCall(count: number, id = 1): string {
  const keys = Array.from({ length: count }, (_, i) => `,"extra_${i}":1`).join("");
  return call(id, `{"query":"leave"${keys}}`);
}

/**
 * A `tools/call` of `search_knowledge` with `count` unknown keys of `keyChars` characters, each
 * valued with a string of `valueChars` (or 1): few enough keys to pass the body's structure
 * bound, with names and values long enough to fill the body.
 */
export function longUnknownKeysCall(count: number, keyChars: number, valueChars = 0, id = 1): string {
  const value = valueChars > 0 ? `"${"v".repeat(valueChars)}"` : "1";
  const keys = Array.from({ length: count }, (_, i) => `,"${String(i).padEnd(keyChars, "k")}":${value}`).join(
    "",
  );
  return call(id, `{"query":"leave"${keys}}`);
}

/** A JSON-RPC batch of `calls` such calls (ids 1…calls). */
export function unknownKeysBatch(calls: number, count: number, keyChars: number, valueChars = 0): string {
  return `[${Array.from({ length: calls }, (_, i) => longUnknownKeysCall(count, keyChars, valueChars, i + 1)).join(",")}]`;
}
