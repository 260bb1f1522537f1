// The stdio framing in front of the MCP SDK's transport. The SDK drops a line that is not JSON
// or not JSON-RPC with no reply (the client then waits forever), and a line over its buffer
// limit closes the transport (the server exits). Here every line is checked first: a valid
// message goes on to the SDK, anything else is answered as JSON-RPC 2.0 says — Parse error
// (-32700, id null) or Invalid Request (-32600, with the request's id when it can be read) —
// and an oversized line is skipped as it streams in, never buffered, so the server stays up.
import { Transform, type TransformCallback } from "node:stream";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** The largest message accepted (the SDK's own stdio default). */
export const MAX_JSON_RPC_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Bytes kept from each end of an oversized line to find its id. */
const ID_WINDOW_BYTES = 512;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export interface JsonRpcErrorReply {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

export interface JsonRpcLinesOptions {
  /** Called with the reply to a line that is not a valid message; it goes to the client. */
  reject: (reply: JsonRpcErrorReply, why: string) => void;
  maxMessageBytes?: number;
}

/** A Transform: raw stdin in, one valid JSON-RPC message per line out. */
export function jsonRpcLines(options: JsonRpcLinesOptions): Transform {
  const max = options.maxMessageBytes ?? MAX_JSON_RPC_MESSAGE_BYTES;
  let parts: Buffer[] = [];
  let size = 0;
  let oversized = false;
  let head: Buffer = Buffer.alloc(0);
  let tail: Buffer = Buffer.alloc(0);

  const reply = (id: string | number | null, code: number, message: string, why: string) =>
    options.reject({ jsonrpc: "2.0", id, error: { code, message } }, why);

  const take = (segment: Buffer) => {
    if (segment.length === 0) return;
    if (oversized) {
      tail = lastBytes(Buffer.concat([tail, segment]), ID_WINDOW_BYTES);
      return;
    }
    if (size + segment.length > max) {
      const sofar = Buffer.concat([...parts, segment]);
      head = sofar.subarray(0, ID_WINDOW_BYTES);
      tail = lastBytes(sofar, ID_WINDOW_BYTES);
      parts = [];
      size = 0;
      oversized = true;
      return;
    }
    parts.push(segment);
    size += segment.length;
  };

  const endLine = (push: (line: string) => void) => {
    if (oversized) {
      const id = idIn(tail.toString("utf8")) ?? idIn(head.toString("utf8")) ?? null;
      reply(
        id,
        INVALID_REQUEST,
        `Invalid Request: message larger than ${max} bytes`,
        `a message over ${max} bytes was refused`,
      );
      oversized = false;
      head = Buffer.alloc(0);
      tail = Buffer.alloc(0);
      return;
    }
    const line = Buffer.concat(parts).toString("utf8").replace(/\r$/, "");
    parts = [];
    size = 0;
    if (line.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      reply(null, PARSE_ERROR, "Parse error", "a line that is not JSON was refused");
      return;
    }
    if (!JSONRPCMessageSchema.safeParse(json).success) {
      reply(
        idOf(json),
        INVALID_REQUEST,
        "Invalid Request: not a JSON-RPC 2.0 message",
        "a JSON line that is not a JSON-RPC message was refused",
      );
      return;
    }
    push(`${line}\n`);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      let start = 0;
      for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, newline));
        endLine((line) => this.push(line));
        start = newline + 1;
      }
      take(chunk.subarray(start));
      callback();
    },
    flush(callback: TransformCallback) {
      if (size > 0 || oversized) endLine((line) => this.push(line));
      callback();
    },
  });
}

function lastBytes(buffer: Buffer, n: number): Buffer {
  return buffer.length > n ? Buffer.from(buffer.subarray(buffer.length - n)) : buffer;
}

/** The id of a parsed request, when it has a usable one. */
function idOf(json: unknown): string | number | null {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return null;
  const id = (json as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/** The last `"id": <number or string>` in a fragment of an oversized message. */
function idIn(fragment: string): string | number | undefined {
  let found: string | number | undefined;
  for (const match of fragment.matchAll(/"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.){0,200}")\s*[,}]/g)) {
    const raw = match[1]!;
    found = raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
  }
  return found;
}
