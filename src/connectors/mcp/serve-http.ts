// `second-look mcp <bot…> --http [host:]port`: the bots' knowledge tools over MCP's Streamable
// HTTP transport (the official SDK's StreamableHTTPServerTransport on node:http), for a team
// that shares one knowledge server. Stateless: every POST gets a fresh MCP server and transport
// over the bot's tools assembled once (knowledgeTools), so any number of clients call at once
// and no call shares state with another. Each request, in this order:
//   GET /health                      200 {"status":"ok"} (503 while stopping), no token needed
//   /mcp (one bot) or /mcp/<bot>     otherwise 404 (naming only the bots the token may use)
//   Authorization: Bearer <token>    401 without a known token
//   the token's allow-list           403 when it does not name the bot
//   the token's request rate         429 with Retry-After
//   POST only                        405 (no server-sent event stream: replies are JSON)
//   the body's size                  413 past the limit
//   the body's structure             400 past MCP_MESSAGE_BOUNDS (depth, members, names), or not JSON
//   a JSON-RPC batch                 400 past 10 messages; 429: each message counts against the rate
// Every answer before the body is read leaves the body unread (replyUnread): a large one closes
// the connection. Two bots of one name are refused at start (checkBotNames). Binds 127.0.0.1
// unless a host is given. Stopping stops accepting, answers requests already in progress within
// a bound, then closes what is left.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { errorMessage } from "../../errors.js";
import type { Logger } from "../../telemetry/logger.js";
import { ConnectorsError } from "../connectors-error.js";
import { jsonOverBounds, MCP_MESSAGE_BOUNDS } from "./json-bounds.js";
import type { KnowledgeTools } from "./knowledge-mcp-server.js";
import { grantedCollections, type TokenGrant, type TokenStore } from "./mcp-tokens.js";
import { type RateLimiter, rateLimiter } from "./rate-limit.js";

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
/** A refused request's body up to this size is read and dropped, so its connection stays open. */
const DRAIN_BYTES = 64 * 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** The most messages one JSON-RPC batch may hold (batchAllowed says why). */
export const MAX_BATCH_MESSAGES = 10;

export class McpListenError extends ConnectorsError {
  override readonly name = "McpListenError";
  constructor(message: string) {
    super("mcp-listen", message);
  }
}

export class McpBotNamesError extends ConnectorsError {
  override readonly name = "McpBotNamesError";
  constructor(message: string) {
    super("mcp-bot-names", message);
  }
}

export interface HttpBot {
  name: string;
  /** The bot's folder, named when two bots would share a path. */
  dir?: string;
  tools: KnowledgeTools;
}

/**
 * A bot is served at `/mcp/<name>`, its name is its folder's, and tokens name it so: two bots of
 * one name (`mcp a/kb b/kb`) would share `/mcp/kb`, one of them unreachable, and a scope `kb`
 * could not tell them apart. Refused, naming both folders and the way out.
 */
export function checkBotNames(bots: ReadonlyArray<Pick<HttpBot, "name" | "dir">>): void {
  const seen = new Map<string, Pick<HttpBot, "name" | "dir">>();
  for (const bot of bots) {
    const earlier = seen.get(bot.name);
    if (earlier) {
      throw new McpBotNamesError(
        `bots ${earlier.dir ?? earlier.name} and ${bot.dir ?? bot.name} are both named "${bot.name}" ` +
          `and would share ${MCP_PATH}/${encodeURIComponent(bot.name)}: serve one of them from another ` +
          "`second-look mcp --http` (another port), or rename one bot's folder",
      );
    }
    seen.set(bot.name, bot);
  }
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
  checkBotNames(options.bots);
  const requestsPerMinute = options.requestsPerMinute ?? HTTP_DEFAULTS.requestsPerMinute;
  const ctx: RouteContext = {
    options,
    maxBodyBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
    requestsPerMinute,
    limiter: rateLimiter(requestsPerMinute),
    byName: new Map(options.bots.map((bot) => [bot.name, bot])),
    stopping: false,
  };
  const { log } = options;
  let active = 0;
  let idle: (() => void) | undefined;

  const onRequest = (req: IncomingMessage, res: ServerResponse, expectsContinue = false) => {
    active++;
    res.once("close", () => {
      active--;
      if (active === 0) idle?.();
    });
    route(ctx, req, res, expectsContinue).catch((error: unknown) => {
      log.error({ err: error }, "mcp http: request failed");
      if (!res.headersSent) json(res, 500, { error: "internal error" });
      else res.destroy();
    });
  };
  const server: Server = createServer(onRequest);
  // `Expect: 100-continue`: the client sends its body only once the request has passed every
  // check (route's writeContinue); a refused one is answered without the body ever being sent.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, true));
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
      ctx.stopping = true;
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

/** What every request of one server reads. */
interface RouteContext {
  options: HttpMcpOptions;
  maxBodyBytes: number;
  requestsPerMinute: number;
  limiter: RateLimiter;
  byName: ReadonlyMap<string, HttpBot>;
  stopping: boolean;
}

/**
 * One request, checked in the order the header comment gives. Everything up to the body's size is
 * decided on the headers alone and answered by replyUnread, which never reads the body.
 */
async function route(
  ctx: RouteContext,
  req: IncomingMessage,
  res: ServerResponse,
  expectsContinue: boolean,
): Promise<void> {
  const { byName, stopping } = ctx;
  const path = (req.url ?? "/").split("?")[0]!;
  const early = (status: number, body: unknown) => replyUnread(req, res, status, body);
  if (stopping) res.setHeader("connection", "close");
  if (path === HEALTH_PATH) return early(stopping ? 503 : 200, { status: stopping ? "stopping" : "ok" });
  if (path !== MCP_PATH && !path.startsWith(`${MCP_PATH}/`)) return early(404, { error: "not found" });
  if (stopping) return early(503, { error: "the server is stopping" });
  // The token first: without one, nothing tells which bots this server has.
  const grant = ctx.options.tokens.authenticate(req.headers.authorization);
  if (!grant) {
    res.setHeader("www-authenticate", 'Bearer realm="second-look"');
    return early(401, { error: "a valid bearer token is required (Authorization: Bearer <token>)" });
  }
  const bot = botFor(path, byName);
  if (bot === undefined) return early(404, { error: `no bot at ${path}` });
  if (bot === "ambiguous") {
    // Only the bots this token may use are named: the others are none of its business.
    const usable = [...byName.values()]
      .filter((b) => grantedCollections(grant, b.name, b.tools.collections) !== "none")
      .map((b) => b.name);
    return early(404, {
      error:
        usable.length > 0
          ? `this server serves several bots: use ${MCP_PATH}/<bot> (${usable.join(", ")})`
          : "this token may not use any bot of this server",
    });
  }
  const granted = grantedCollections(grant, bot.name, bot.tools.collections);
  if (granted === "none") return early(403, { error: `this token may not use bot ${bot.name}` });
  const rate = ctx.limiter.take(grant.label);
  if (!rate.allowed) {
    res.setHeader("retry-after", String(rate.retryAfterSeconds));
    return early(429, { error: "too many requests for this token" });
  }
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    return early(405, { error: "POST JSON-RPC messages to this path" });
  }
  const tooLarge = { error: `the request body is over ${ctx.maxBodyBytes} bytes` };
  if (declaredLength(req) > ctx.maxBodyBytes) return early(413, tooLarge);
  if (expectsContinue) res.writeContinue();
  const body = await readBody(req, ctx.maxBodyBytes);
  if (body === "aborted") return;
  if (body === "too-large") {
    // Reading stopped at the limit: the connection closes after the answer, the rest unread.
    res.setHeader("connection", "close");
    return json(res, 413, tooLarge);
  }
  const message = parseMessage(body);
  if ("refused" in message) return json(res, 400, message.refused);
  if (!batchAllowed(ctx, grant.label, message.value, res)) return;
  await answerMcpRequest(bot, granted, grant, req, res, message.value, ctx.options.log);
}

/**
 * The body as one JSON-RPC message (or batch), or the JSON-RPC error refusing it: its structure is
 * measured on the bytes first (jsonOverBounds), so no parse, schema or error message ever walks
 * more than MCP_MESSAGE_BOUNDS allows, whatever 1 MiB of JSON was sent.
 */
function parseMessage(body: Buffer): { value: unknown } | { refused: JsonRpcError } {
  const over = jsonOverBounds(body, MCP_MESSAGE_BOUNDS);
  if (over !== undefined) return { refused: jsonRpcError(INVALID_REQUEST, `Invalid Request: ${over}`) };
  try {
    return { value: JSON.parse(body.toString("utf8")) };
  } catch {
    return { refused: jsonRpcError(PARSE_ERROR, "Parse error") };
  }
}

/**
 * JSON-RPC batches (an array of messages in one POST). The SDK still negotiates protocol
 * revisions 2024-11-05 and 2025-03-26, whose clients may batch (2025-06-18 dropped batching), so
 * a batch is answered, not refused outright, but within two bounds:
 * - at most MAX_BATCH_MESSAGES messages: the SDK answers a batch's messages in one turn of the
 *   event loop (about 1 ms each on a busy 2-core machine), so a batch of the SDK's own maximum,
 *   100, held every other client ~100–250 ms; 10 keep it near one call's cost;
 * - each message counts against the token's rate, so 10 calls in one POST cost what 10 POSTs
 *   cost. The POST already took one; the rest are taken here, all or nothing.
 * False when refused (the answer is sent).
 */
function batchAllowed(ctx: RouteContext, label: string, message: unknown, res: ServerResponse): boolean {
  if (!Array.isArray(message) || message.length <= 1) return true;
  if (message.length > MAX_BATCH_MESSAGES) {
    json(
      res,
      400,
      jsonRpcError(
        INVALID_REQUEST,
        `Invalid Request: a batch may hold at most ${MAX_BATCH_MESSAGES} messages`,
      ),
    );
    return false;
  }
  const rate = ctx.limiter.take(label, undefined, message.length - 1);
  if (rate.allowed) return true;
  if (message.length <= ctx.requestsPerMinute) {
    res.setHeader("retry-after", String(rate.retryAfterSeconds));
    json(res, 429, { error: "too many requests for this token (each message of a batch counts)" });
  } else {
    json(res, 429, {
      error: `a batch of ${message.length} messages is more than this token may send in a minute (${ctx.requestsPerMinute})`,
    });
  }
  return false;
}

interface JsonRpcError {
  jsonrpc: "2.0";
  id: null;
  error: { code: number; message: string };
}

const jsonRpcError = (code: number, message: string): JsonRpcError => ({
  jsonrpc: "2.0",
  id: null,
  error: { code, message },
});

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

/** The bytes the Content-Length header announces; 0 when it names none. */
function declaredLength(req: IncomingMessage): number {
  const declared = Number(req.headers["content-length"]);
  return Number.isFinite(declared) && declared > 0 ? declared : 0;
}

/**
 * Answers a request whose body has not been read, and does not read it. A body still on its way
 * that is declared small (DRAIN_BYTES) is dropped as it arrives, so the connection stays open for
 * the client's next request; a larger one, one of unknown length (chunked), or one held back
 * behind `Expect: 100-continue` closes the connection with the answer: node:http then ends and
 * destroys the socket instead of reading the body through to reach the next request (a client
 * without a token once had 200 MB read and dropped).
 */
function replyUnread(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  const pending =
    !req.complete && (req.headers["transfer-encoding"] !== undefined || declaredLength(req) > 0);
  const drain =
    req.headers["transfer-encoding"] === undefined &&
    req.headers.expect === undefined &&
    declaredLength(req) <= DRAIN_BYTES;
  if (pending && !drain) res.setHeader("connection", "close");
  json(res, status, body);
}

/**
 * The body, "too-large" as soon as it passes `max` bytes (the request is paused there and the rest
 * is never read), or "aborted" when the client went away first.
 */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | "too-large" | "aborted"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: Buffer | "too-large" | "aborted") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onGone);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.pause();
      finish("too-large");
    };
    const onEnd = () => finish(Buffer.concat(chunks, size));
    const onGone = () => finish("aborted");
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onGone);
    req.once("close", onGone);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
