// Runs an MCP server on this process's stdin/stdout until the client goes away: stdin ends or
// closes (the client exited or closed the pipe), the transport closes, or SIGINT/SIGTERM.
// Resolves once the server is closed, so the caller can release its backend and exit.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Logger } from "../../telemetry/logger.js";
import { jsonRpcLines, MAX_JSON_RPC_MESSAGE_BYTES } from "./json-rpc-lines.js";
import { guardStdout } from "./stdout-guard.js";

export async function serveStdio(server: McpServer, log: Logger): Promise<void> {
  const guard = guardStdout();
  const stdin = process.stdin;
  // Lines that are not valid JSON-RPC are answered here; only valid ones reach the SDK.
  const framed = jsonRpcLines({
    reject: (reply, why) => {
      log.warn({ id: reply.id, code: reply.error.code }, `mcp: ${why}; answered with an error`);
      guard.jsonRpc.write(`${JSON.stringify(reply)}\n`);
    },
  });
  stdin.pipe(framed);
  const transport = new StdioServerTransport(framed, guard.jsonRpc, {
    // Room for the newline after a message of the largest size the framing lets through.
    maxBufferSize: MAX_JSON_RPC_MESSAGE_BYTES + 1,
  });
  let finish: (why: string) => void = () => {};
  const finished = new Promise<string>((resolve) => {
    finish = resolve;
  });
  const onEnd = () => finish("stdin closed");
  const onSigint = () => finish("SIGINT");
  const onSigterm = () => finish("SIGTERM");
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  process.once("SIGINT", onSigint);
  process.once("SIGTERM", onSigterm);
  transport.onclose = () => finish("transport closed");
  transport.onerror = (error) => log.warn({ err: error }, "mcp: transport error");
  try {
    await server.connect(transport);
    const why = await finished;
    log.info({ reason: why }, "mcp: shutting down");
  } finally {
    stdin.unpipe(framed);
    stdin.off("end", onEnd);
    stdin.off("close", onEnd);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
    await server.close().catch(() => {});
    // Replies still queued for the client go out before stdout is handed back.
    await new Promise<void>((resolve) => guard.jsonRpc.end(resolve));
    guard.restore();
    // Nothing more will be read; an open stdin handle would keep the process alive.
    stdin.destroy();
  }
}
