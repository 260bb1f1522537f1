// On stdio, only the MCP transport reaches stdout: any other write (console.log from a library,
// a stray progress line) is sent to stderr instead, and restore() hands stdout back.
import { Console } from "node:console";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardStdout } from "../../../src/connectors/mcp/stdout-guard.js";

function capture() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return { stream, text: () => text };
}

describe("guardStdout", () => {
  it("sends stray stdout writes to stderr and keeps the real stdout for JSON-RPC", async () => {
    const out = capture();
    const err = capture();
    const stdout = out.stream as unknown as NodeJS.WriteStream;
    const guard = guardStdout(stdout, err.stream);
    stdout.write("stray progress line\n");
    // A Console writes through the stream's write() at call time, as console.log does.
    new Console(stdout).log("library log");
    await new Promise<void>((resolve) => guard.jsonRpc.write('{"jsonrpc":"2.0"}\n', () => resolve()));
    expect(out.text()).toBe('{"jsonrpc":"2.0"}\n');
    expect(err.text()).toBe("stray progress line\nlibrary log\n");
    guard.restore();
    stdout.write("after restore\n");
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe('{"jsonrpc":"2.0"}\nafter restore\n');
  });
});
