// How much structure a JSON text holds, measured on its bytes before it is parsed: the nesting
// depth and the number of members and elements (each `[` or `{` and each `,` outside strings
// counts one, so a container counts as many as it holds).
// One pass, no allocation, stopping at the first bound passed, so a 1 MiB body of 90,000 keys or
// 500,000 nested arrays is refused in about a millisecond, before JSON.parse builds it and before
// the MCP SDK's schemas walk it. In UTF-8 every byte of a multi-byte character is >= 0x80, so a
// quote, backslash or bracket byte is always that character.

export interface JsonBounds {
  maxDepth: number;
  maxElements: number;
}

/**
 * What an MCP message may hold: a tool call's arguments are a few scalars, an `initialize` a few
 * dozen capabilities, a batch (at most 10 messages, serve-http.ts) a few hundred members. The
 * element bound also bounds what the SDK's schemas copy: 1 MiB of 4,000 long argument names
 * held the event loop ~60–90 ms on a busy 2-core machine, 1,000 a quarter of that.
 */
export const MCP_MESSAGE_BOUNDS: JsonBounds = { maxDepth: 64, maxElements: 1_024 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** Why `text` passes `bounds` ("nested deeper than 64 levels", …), or undefined when it does not. */
export function jsonOverBounds(
  text: Uint8Array,
  bounds: JsonBounds = MCP_MESSAGE_BOUNDS,
): string | undefined {
  let depth = 0;
  let elements = 0;
  let inString = false;
  const tooMany = `more than ${bounds.maxElements} members and elements`;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > bounds.maxDepth) return `nested deeper than ${bounds.maxDepth} levels`;
      if (++elements > bounds.maxElements) return tooMany;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
    else if (byte === COMMA && ++elements > bounds.maxElements) return tooMany;
  }
  return undefined;
}
