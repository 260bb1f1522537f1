// Runs an MCP server on this process's stdin/stdout until the client goes away: stdin ends or
// closes (the client exited or closed the pipe), the transport closes, or SIGINT/SIGTERM.
// Resolves once the server is closed, so the caller can release its backend and exit.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Logger } from "../../telemetry/logger.js";
import { jsonRpcLines, MAX_JSON_RPC_MESSAGE_BYTES } from "./json-rpc-lines.js";
import { DEFAULT_CALL_TIMEOUT_MS } from "./knowledge-mcp-server.js";
import { guardStdout } from "./stdout-guard.js";

/**
 * How long a server whose client closed stdin waits for the calls still running: each call is
 * bounded by the MCP call time bound and answers by then, so this only adds a margin.
 */
export const DRAIN_MS = DEFAULT_CALL_TIMEOUT_MS + 2_000;

/** JSON-RPC's "internal error": the answer a call gets when the server stops before it finished. */
const INTERNAL_ERROR = -32603;

export async function serveStdio(
  server: McpServer,
  log: Logger,
  options: { drainMs?: number } = {},
): Promise<void> {
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
  let inFlight: InFlight | undefined;
  try {
    await server.connect(transport);
    inFlight = trackInFlight(transport);
    const why = await finished;
    log.info({ reason: why, inFlight: inFlight.ids.size }, "mcp: shutting down");
    // A client that closed stdin still reads stdout: the calls it sent get their answers.
    if (why === "stdin closed") await inFlight.drained(options.drainMs ?? DRAIN_MS);
    // Every request gets an answer or an error before exit: the ones still running get an error.
    for (const id of inFlight.ids) {
      const reply = {
        jsonrpc: "2.0",
        id,
        error: { code: INTERNAL_ERROR, message: `server shutting down (${why}) before the call finished` },
      };
      guard.jsonRpc.write(`${JSON.stringify(reply)}\n`);
    }
    if (inFlight.ids.size)
      log.warn({ calls: inFlight.ids.size, reason: why }, "mcp: calls answered with an error at shutdown");
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

interface InFlight {
  /** Ids of the requests received and not yet answered. */
  ids: Set<string | number>;
  /** Resolves when none is left, or after `ms`. */
  drained(ms: number): Promise<void>;
}

/** Follows the requests the transport hands the server and the answers it sends back. */
function trackInFlight(transport: StdioServerTransport): InFlight {
  const ids = new Set<string | number>();
  let empty: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message) => {
    if ("method" in message && "id" in message) ids.add(message.id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if (!("method" in message) && "id" in message && message.id !== undefined && ids.delete(message.id)) {
      if (ids.size === 0) empty?.();
    }
  };
  return {
    ids,
    drained: (ms) =>
      ids.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ms);
            empty = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
  };
}
