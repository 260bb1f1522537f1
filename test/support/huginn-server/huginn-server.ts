// A Huginn-compatible HTTP server on 127.0.0.1 for tests and benchmarks: the routes second-look
// calls (`/api/search`, `/api/document/{collection}/{doc_id}`, `/api/collections`), answered by
// handlers the test supplies, with every request recorded (path and query string) so a test
// can check exactly what was sent. An unhandled route answers 404 as FastAPI would.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path as sent (percent-encoding kept). */
  rawPath: string;
  route: "search" | "document" | "collections" | "other";
  params: URLSearchParams;
  /** `q`, for searches. */
  query: string;
  /** Every `collection` parameter, in order. */
  collections: string[];
  /** For document requests: the decoded collection and doc id. */
  document?: { collection: string; id: string };
}

export interface Reply {
  status?: number;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (overrides json). */
  body?: string;
  /** Answer after this long (the request may be given up by the client first). */
  delayMs?: number;
}

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface HuginnHandlers {
  search?: Handler;
  document?: Handler;
  collections?: Handler;
}

export interface HuginnServer {
  url: string;
  requests: RecordedRequest[];
  searches: () => RecordedRequest[];
  /** Swap handlers between cases. */
  handlers: HuginnHandlers;
  close: () => Promise<void>;
}

const NOT_FOUND: Reply = { status: 404, json: { detail: "Not Found" } };

export async function startHuginnServer(handlers: HuginnHandlers = {}): Promise<HuginnServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const state: HuginnServer = {
    url: "",
    requests,
    searches: () => requests.filter((r) => r.route === "search"),
    handlers,
    close: async () => {},
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const recorded = record(req);
    requests.push(recorded);
    const handler =
      recorded.route === "search"
        ? state.handlers.search
        : recorded.route === "document"
          ? state.handlers.document
          : recorded.route === "collections"
            ? state.handlers.collections
            : undefined;
    Promise.resolve(handler ? handler(recorded) : NOT_FOUND)
      .then((reply) => {
        const send = () => {
          if (res.destroyed || res.writableEnded) return;
          const body = reply.body ?? JSON.stringify(reply.json ?? null);
          res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
          res.end(body);
        };
        if (reply.delayMs && reply.delayMs > 0) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            send();
          }, reply.delayMs);
          timers.add(timer);
        } else send();
      })
      .catch((error: unknown) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: String(error) }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

function record(req: IncomingMessage): RecordedRequest {
  const rawPath = req.url ?? "/";
  const url = new URL(rawPath, "http://127.0.0.1");
  const params = url.searchParams;
  const recorded: RecordedRequest = {
    method: req.method ?? "GET",
    rawPath,
    route: "other",
    params,
    query: params.get("q") ?? "",
    collections: params.getAll("collection"),
  };
  if (url.pathname === "/api/search") recorded.route = "search";
  else if (url.pathname === "/api/collections") recorded.route = "collections";
  else if (url.pathname.startsWith("/api/document/")) {
    const [collection, ...rest] = url.pathname.slice("/api/document/".length).split("/");
    recorded.route = "document";
    recorded.document = {
      collection: decodeURIComponent(collection ?? ""),
      id: rest.map(decodeURIComponent).join("/"),
    };
  }
  return recorded;
}
