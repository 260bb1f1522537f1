import { describe, expect, it } from "vitest";
import { readSseEvents, SseLimitError } from "../../src/llm/sse-events.js";

async function collect(chunks: string[], maxBytes = 1_000_000) {
  const out = [];
  async function* body() {
    for (const c of chunks) yield new TextEncoder().encode(c);
  }
  for await (const event of readSseEvents(body(), { maxBytes })) out.push(event);
  return out;
}

describe("readSseEvents", () => {
  it("reads events split anywhere across chunks, with CRLF, comments and multi-line data", async () => {
    const stream =
      ': keep-alive\r\nevent: message_start\r\ndata: {"a":1}\r\n\r\ndata: line one\ndata: line two\n\n';
    const chunked = stream.match(/.{1,3}/gs)!;
    expect(await collect(chunked)).toEqual([
      { event: "message_start", data: '{"a":1}' },
      { event: "message", data: "line one\nline two" },
    ]);
  });

  it("splits a multi-byte character across chunks correctly", async () => {
    const bytes = new TextEncoder().encode("data: Über\n\n");
    async function* body() {
      yield bytes.subarray(0, 7);
      yield bytes.subarray(7);
    }
    const events = [];
    for await (const e of readSseEvents(body(), { maxBytes: 100 })) events.push(e);
    expect(events).toEqual([{ event: "message", data: "Über" }]);
  });

  it("delivers a last event the stream did not terminate with a blank line", async () => {
    expect(await collect(["data: [DONE]"])).toEqual([{ event: "message", data: "[DONE]" }]);
  });

  it("stops past its byte bound", async () => {
    await expect(collect(["data: x\n\n".repeat(100)], 50)).rejects.toBeInstanceOf(SseLimitError);
  });

  it("reads a long line arriving in many chunks", async () => {
    const long = "x".repeat(200_000);
    const chunks = [`data: ${long}`.match(/.{1,1000}/gs)!, ["\n\n"]].flat();
    const events = await collect(chunks);
    expect(events[0]!.data.length).toBe(200_000);
  });
});
