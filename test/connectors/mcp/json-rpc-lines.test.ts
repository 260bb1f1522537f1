// The stdio framing in front of the SDK's transport: invalid lines answered per JSON-RPC 2.0,
// oversized lines refused without being buffered, valid messages passed on unchanged.
import { describe, expect, it } from "vitest";
import {
  INVALID_REQUEST,
  type JsonRpcErrorReply,
  jsonRpcLines,
  PARSE_ERROR,
} from "../../../src/connectors/mcp/json-rpc-lines.js";

function framing(maxMessageBytes?: number) {
  const replies: JsonRpcErrorReply[] = [];
  const passed: string[] = [];
  const stream = jsonRpcLines({
    reject: (reply) => replies.push(reply),
    ...(maxMessageBytes ? { maxMessageBytes } : {}),
  });
  stream.on("data", (line: Buffer) => passed.push(line.toString("utf8")));
  const write = (text: string | Buffer) => new Promise<void>((r) => stream.write(text, () => r()));
  return { replies, passed, write, end: () => new Promise<void>((r) => stream.end(r)) };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

describe("jsonRpcLines", () => {
  it("passes valid messages on, one per line, even when split across chunks", async () => {
    const f = framing();
    const two = `${ping(1)}\n${ping(2)}\n`;
    await f.write(two.slice(0, 10));
    await f.write(two.slice(10));
    expect(f.passed.join("")).toBe(two);
    expect(f.replies).toEqual([]);
  });

  it("a line that is not JSON gets a Parse error with id null", async () => {
    const f = framing();
    await f.write("this is not json\n");
    expect(f.replies).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "Parse error" } },
    ]);
    expect(f.passed).toEqual([]);
  });

  it("JSON that is not JSON-RPC gets Invalid Request with its id", async () => {
    const f = framing();
    await f.write(`${JSON.stringify({ id: 9, method: 3 })}\n[]\n`);
    expect(f.replies.map((r) => [r.id, r.error.code])).toEqual([
      [9, INVALID_REQUEST],
      [null, INVALID_REQUEST],
    ]);
  });

  it("an oversized line is refused with its id (read from its end), in pieces, and the next line still passes", async () => {
    const f = framing(1024);
    const big = JSON.stringify({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { x: "y".repeat(5000) },
      id: 42,
    });
    for (let i = 0; i < big.length; i += 700) await f.write(big.slice(i, i + 700));
    await f.write(`\n${ping(43)}\n`);
    expect(f.replies).toEqual([
      {
        jsonrpc: "2.0",
        id: 42,
        error: { code: INVALID_REQUEST, message: "Invalid Request: message larger than 1024 bytes" },
      },
    ]);
    expect(f.passed).toEqual([`${ping(43)}\n`]);
  });

  it("ignores blank lines and handles CRLF", async () => {
    const f = framing();
    await f.write(`\n\r\n${ping(5)}\r\n`);
    expect(f.replies).toEqual([]);
    expect(f.passed).toEqual([`${ping(5)}\n`]);
  });
});
