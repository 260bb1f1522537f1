// `second-look mcp <bot…> --http [host:]port`: the bots' knowledge tools over MCP's Streamable
// HTTP transport (the official SDK's StreamableHTTPServerTransport on node:http), for a team
// that shares one knowledge server. Stateless: every POST gets a fresh MCP server and transport
// over the bot's tools assembled once (knowledgeTools), so any number of clients call at once
// and no call shares state with another. Each request, in this order:
//   GET /health                      200 {"status":"ok"} (503 while stopping), no token needed
//   /mcp (one bot) or /mcp/<bot>     otherwise 404
//   Authorization: Bearer <token>    401 without a known token
//   the token's allow-list           403 when it does not name the bot
//   the token's request rate         429 with Retry-After
//   POST only                        405 (no server-sent event stream: replies are JSON)
//   the body's size                  413 past the limit
// Binds 127.0.0.1 unless a host is given. Stopping stops accepting, answers requests already in
// progress within a bound, then closes what is left.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { errorMessage, SecondLookError } from "../../errors.js";
import type { Logger } from "../../telemetry/logger.js";
import type { KnowledgeTools } from "./knowledge-mcp-server.js";
import { grantedCollections, type TokenGrant, type TokenStore } from "./mcp-tokens.js";
import { rateLimiter } from "./rate-limit.js";

export const MCP_PATH = "/mcp";
export const HEALTH_PATH = "/health";
export const DEFAULT_HTTP_HOST = "127.0.0.1";
export const HTTP_DEFAULTS = {
  maxBodyBytes: 1024 * 1024,
  requestsPerMinute: 600,
  shutdownMs: 30_000,
} as const;
/** Time to receive a request's headers and body (the call itself has its own bound). */
const RECEIVE_TIMEOUT_MS = 30_000;
const PARSE_ERROR = -32700;

export class McpListenError extends SecondLookError {
  override readonly name = "McpListenError";
  constructor(message: string) {
    super("connectors", "mcp-listen", message);
  }
}

export interface HttpBot {
  name: string;
  tools: KnowledgeTools;
}

export interface HttpMcpOptions {
  bots: readonly HttpBot[];
  tokens: TokenStore;
  host?: string;
  port: number;
  maxBodyBytes?: number;
  requestsPerMinute?: number;
  log: Logger;
}

export interface HttpMcpServer {
  /** `http://host:port` (the port the system gave for 0). */
  origin: string;
  port: number;
  /** Requests being answered now. */
  inFlight(): number;
  /** Stops accepting, waits up to `timeoutMs` for requests in progress, then closes the rest. */
  close(timeoutMs?: number): Promise<{ unfinished: number }>;
}

/** `8080`, `0.0.0.0:8080`, `[::1]:8080`, `localhost:0` → host and port. */
export function parseListenAddress(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s[\]]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535) {
    throw new McpListenError(`--http takes [host:]port (e.g. 8080 or 0.0.0.0:8080), got "${value}"`);
  }
  const host = match[1]?.replace(/^\[|\]$/g, "") ?? DEFAULT_HTTP_HOST;
  return { host, port };
}

export async function startHttpMcp(options: HttpMcpOptions): Promise<HttpMcpServer> {
  const { log } = options;
  const maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes;
  const limiter = rateLimiter(options.requestsPerMinute ?? HTTP_DEFAULTS.requestsPerMinute);
  const byName = new Map(options.bots.map((bot) => [bot.name, bot]));
  let stopping = false;
  let active = 0;
  let idle: (() => void) | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (stopping) res.setHeader("connection", "close");
    if (path === HEALTH_PATH) {
      return json(res, stopping ? 503 : 200, { status: stopping ? "stopping" : "ok" });
    }
    if (path !== MCP_PATH && !path.startsWith(`${MCP_PATH}/`)) return json(res, 404, { error: "not found" });
    if (stopping) return json(res, 503, { error: "the server is stopping" });
    // The token first: without one, nothing tells which bots this server has.
    const grant = options.tokens.authenticate(req.headers.authorization);
    if (!grant) {
      res.setHeader("www-authenticate", 'Bearer realm="second-look"');
      return json(res, 401, { error: "a valid bearer token is required (Authorization: Bearer <token>)" });
    }
    const bot = botFor(path, byName);
    if (bot === undefined) return json(res, 404, { error: `no bot at ${path}` });
    if (bot === "ambiguous") {
      return json(res, 404, {
        error: `this server serves several bots: use ${MCP_PATH}/<bot> (${[...byName.keys()].join(", ")})`,
      });
    }
    const granted = grantedCollections(grant, bot.name, bot.tools.collections);
    if (granted === "none") return json(res, 403, { error: `this token may not use bot ${bot.name}` });
    const rate = limiter.take(grant.label);
    if (!rate.allowed) {
      res.setHeader("retry-after", String(rate.retryAfterSeconds));
      return json(res, 429, { error: "too many requests for this token" });
    }
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return json(res, 405, { error: "POST JSON-RPC messages to this path" });
    }
    const body = await readBody(req, maxBodyBytes);
    if (body === "too-large") {
      res.setHeader("connection", "close");
      return json(res, 413, { error: `the request body is over ${maxBodyBytes} bytes` });
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return json(res, 400, {
        jsonrpc: "2.0",
        id: null,
        error: { code: PARSE_ERROR, message: "Parse error" },
      });
    }
    await answerMcpRequest(bot, granted, grant, req, res, message, log);
  };

  const server: Server = createServer((req, res) => {
    active++;
    res.once("close", () => {
      active--;
      if (active === 0) idle?.();
    });
    handle(req, res).catch((error: unknown) => {
      log.error({ err: error }, "mcp http: request failed");
      if (!res.headersSent) json(res, 500, { error: "internal error" });
      else res.destroy();
    });
  });
  server.headersTimeout = RECEIVE_TIMEOUT_MS;
  server.requestTimeout = RECEIVE_TIMEOUT_MS;

  const host = options.host ?? DEFAULT_HTTP_HOST;
  await listen(server, host, options.port);
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  return {
    origin,
    port,
    inFlight: () => active,
    close: async (timeoutMs = HTTP_DEFAULTS.shutdownMs) => {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (active > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const unfinished = active;
      server.closeAllConnections();
      await closed;
      return { unfinished };
    },
  };
}

/** One JSON-RPC message to a stateless server of the bot, limited to what the token may use. */
async function answerMcpRequest(
  bot: HttpBot,
  granted: "all" | string[],
  grant: TokenGrant,
  req: IncomingMessage,
  res: ServerResponse,
  message: unknown,
  log: Logger,
): Promise<void> {
  const server = bot.tools.newServer(granted === "all" ? {} : { collections: granted });
  // Stateless and JSON replies: no session to remember, nothing kept open between requests.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  transport.onerror = (error) => log.warn({ err: error, token: grant.label }, "mcp http: transport error");
  res.once("close", () => {
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, message);
}

/** Listens on host:port; a port in use or a host not on this machine is one McpListenError. */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: Error) =>
      reject(new McpListenError(`cannot listen on ${host}:${port}: ${errorMessage(error)}`));
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
}

/** The bot a path names: `/mcp` when there is one bot, `/mcp/<bot>` always. */
function botFor(path: string, bots: ReadonlyMap<string, HttpBot>): HttpBot | "ambiguous" | undefined {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === MCP_PATH) return bots.size === 1 ? [...bots.values()][0] : "ambiguous";
  let name: string;
  try {
    name = decodeURIComponent(trimmed.slice(MCP_PATH.length + 1));
  } catch {
    return undefined;
  }
  return bots.get(name);
}

/** The body as text, or "too-large" as soon as it passes `max` bytes (the rest is not read). */
async function readBody(req: IncomingMessage, max: number): Promise<string | "too-large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return "too-large";
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return "too-large";
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
