// A Teams app for one bot (@microsoft/teams.apps 2.0.x, the line that runs on Node 20): the Bot
// Framework messaging endpoint `/api/messages` on the bot's own port, every request's signed
// token checked by the SDK, and the bot's client credentials for replies. The HTTP server is
// ours, so its bind address, timeouts and shutdown are too.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { App, ExpressAdapter } from "@microsoft/teams.apps";
import { DEADLINES } from "../../deadline.js";
import type { Logger } from "../../telemetry/logger.js";
import { oneLine } from "../../text-clip.js";
import type { TeamsCredentials } from "../host-credentials.js";
import type { PlatformApp, PlatformAppOptions } from "../platform-app.js";
import { teamsLogger } from "./logger.js";

/** Bound on one Bot Connector call. */
const CONNECTOR_TIMEOUT_MS = DEADLINES.teamsConnectorMs;
/** The Bot Framework gives up on a request after 15 s; a slow or stalled client gets no longer. */
const REQUEST_TIMEOUT_MS = DEADLINES.teamsRequestMs;

export type TeamsAuth =
  | Pick<TeamsCredentials, "clientId" | "clientSecret" | "tenantId">
  /** A token source instead of the client secret (tests: no call to Entra ID). */
  | { clientId: string; tenantId?: string; token: (scope: string | string[], tenantId?: string) => string };

export interface TeamsAppOptions extends PlatformAppOptions {
  port: number;
  /**
   * Tests only: accept activities without the Bot Framework's signed token. Off by default and
   * never read from the environment here, so a stray variable cannot turn authentication off.
   */
  dangerouslyAllowUnauthenticatedRequests?: boolean;
}

export interface TeamsApp extends PlatformApp<App> {
  /** The port actually bound (useful with port 0). */
  port(): number | undefined;
}

export function createTeamsApp(auth: TeamsAuth, options: TeamsAppOptions): TeamsApp {
  const server: Server = createServer();
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  const logger = teamsLogger(options.log);
  const adapter = new ExpressAdapter(server, { logger });
  const app = new App({
    clientId: auth.clientId,
    ...("clientSecret" in auth ? { clientSecret: auth.clientSecret } : { token: auth.token }),
    ...(auth.tenantId ? { tenantId: auth.tenantId } : {}),
    logger,
    client: { timeout: CONNECTOR_TIMEOUT_MS },
    httpServerAdapter: adapter,
    dangerouslyAllowUnauthenticatedRequests: options.dangerouslyAllowUnauthenticatedRequests === true,
    // The bot's own @mention is not part of the question.
    activity: { mentions: { stripText: true } },
  });
  return {
    app,
    describe: `Teams on ${options.host ?? ""}:${options.port}/api/messages`,
    start: async () => {
      await app.initialize();
      // After the SDK's routes, so it handles what their body parser rejects (bad JSON, bad
      // gzip, a body past the size bound) before any authentication: one log line and a 4xx,
      // not Express's default handler, which prints the error's stack to stderr.
      adapter.use(rejectedRequest(options.log));
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.port, options.host, () => {
          server.off("error", reject);
          resolve();
        });
      });
    },
    stop: async () => {
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open; requests in progress finish first.
        server.closeIdleConnections();
      });
    },
    port: () => (server.address() as AddressInfo | null)?.port,
  };
}

/** Express's error-handler shape, as the SDK's adapter hands requests to it. */
type ErrorHandler = (
  error: unknown,
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** Answers a request the SDK's routes failed on with its status and logs one line (no stack). */
function rejectedRequest(log: Logger): ErrorHandler {
  // Four parameters: Express tells an error handler from a middleware by its arity.
  return (error, request, response, _next) => {
    const e = (error ?? {}) as { status?: unknown; statusCode?: unknown; type?: unknown; message?: unknown };
    const given = Number(e.status ?? e.statusCode);
    const status = Number.isInteger(given) && given >= 400 && given < 600 ? given : 500;
    const type = typeof e.type === "string" ? e.type : undefined;
    const path = oneLine(String(request.url ?? ""), 200);
    log.warn(
      { status, ...(type ? { type } : {}), path },
      `teams: rejected a request to ${path} (${status}): ${oneLine(typeof e.message === "string" ? e.message : String(error), 200)}`,
    );
    if (response.headersSent) {
      response.end();
      return;
    }
    response.statusCode = status;
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ error: status < 500 ? (type ?? "bad request") : "internal error" }));
  };
}
