// How much structure a JSON text holds, measured on its bytes before it is parsed: the nesting
// depth, the number of members and elements (each `[` or `{` and each `,` outside strings
// counts one, so a container counts as many as it holds) and the longest member name.
// One pass (strings skipped by indexOf), no allocation, stopping at the first bound passed, so a 1 MiB body of 90,000 keys or
// 500,000 nested arrays is refused in about a millisecond, before JSON.parse builds it and before
// the MCP SDK's schemas walk it. In UTF-8 every byte of a multi-byte character is >= 0x80, so a
// quote, backslash or bracket byte is always that character.

export interface JsonBounds {
  maxDepth: number;
  maxElements: number;
  /** The longest member name: JSON.parse interns every name, at several times a value's cost. */
  maxNameBytes: number;
}

/**
 * What an MCP message may hold: a tool call's arguments are a few scalars, an `initialize` a few
 * dozen capabilities, a batch (at most 10 messages, serve-http.ts) a few hundred members; no
 * name is longer than a few dozen bytes. The element bound also bounds what the SDK's schemas
 * copy: 1 MiB of 4,000 long argument names held the event loop ~60–90 ms on a busy 2-core
 * machine; and 1 MiB of 1,000 names of 1 KB took 6–20 ms in JSON.parse alone (interning them).
 */
export const MCP_MESSAGE_BOUNDS: JsonBounds = { maxDepth: 64, maxElements: 1_024, maxNameBytes: 256 };

/** The bytes the scan looks at: the structural characters of JSON and its white space. */
const BYTE = {
  quote: 0x22,
  backslash: 0x5c,
  openArray: 0x5b,
  openObject: 0x7b,
  closeArray: 0x5d,
  closeObject: 0x7d,
  comma: 0x2c,
  colon: 0x3a,
} as const;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Why `text` passes `bounds` ("nested deeper than 64 levels", …), or undefined when it does not. */
export function jsonOverBounds(
  text: Uint8Array,
  bounds: JsonBounds = MCP_MESSAGE_BOUNDS,
): string | undefined {
  let depth = 0;
  let elements = 0;
  const tooMany = `more than ${bounds.maxElements} members and elements`;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === BYTE.quote) {
      const end = closingQuote(text, i + 1);
      if (end - i - 1 > bounds.maxNameBytes && isName(text, end + 1)) {
        return `a member name longer than ${bounds.maxNameBytes} bytes`;
      }
      i = end;
      continue;
    }
    if (byte === BYTE.openArray || byte === BYTE.openObject) {
      if (++depth > bounds.maxDepth) return `nested deeper than ${bounds.maxDepth} levels`;
      if (++elements > bounds.maxElements) return tooMany;
    } else if (byte === BYTE.closeArray || byte === BYTE.closeObject) depth--;
    else if (byte === BYTE.comma && ++elements > bounds.maxElements) return tooMany;
  }
  return undefined;
}

/** Where the string opened before `from` ends: its closing quote (one not escaped), or the end. */
function closingQuote(text: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    // indexOf is the engine's own scan: a 1 MiB string is skipped in microseconds.
    const quote = text.indexOf(BYTE.quote, at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && text[quote - backslashes - 1] === BYTE.backslash) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** Whether the string ending before `from` is a member name: a `:` follows, after white space. */
function isName(text: Uint8Array, from: number): boolean {
  let at = from;
  while (at < text.length && WHITESPACE.has(text[at]!)) at++;
  return text[at] === BYTE.colon;
}
