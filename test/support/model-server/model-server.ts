// A scripted fake model server on 127.0.0.1 (random port) that the real Copilot runtime talks to
// in end-to-end tests. It records every request body, so a test can assert on exactly what the
// model received (e.g. the tool message after a hook rewrote the result).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readAnthropicRequest, writeAnthropicReply } from "./anthropic-protocol.js";
import { readOpenAiRequest, writeOpenAiReply } from "./openai-protocol.js";
import type { ModelScript, ScriptReply, ScriptRequest, WireProtocol } from "./script.js";

export interface RecordedRequest {
  protocol: WireProtocol;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The request body as received (raw text), for byte-level assertions. */
  raw: string;
  body: unknown;
  /** The body normalised for scripts. */
  parsed: ScriptRequest;
  reply: ScriptReply;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>` (Anthropic `baseUrl`: the runtime appends `/v1/messages`). */
  url: string;
  /** `http://127.0.0.1:<port>/v1` (OpenAI `baseUrl`: the runtime appends `/chat/completions`). */
  openAiBaseUrl: string;
  requests: RecordedRequest[];
  /** True once the request bound was reached. */
  readonly limitReached: boolean;
  close(): Promise<void>;
}

export interface ModelServerOptions {
  script: ModelScript;
  /**
   * Bound on scripted requests. Past it the server answers every request with a final text,
   * which ends any agent loop, so a runaway test cannot spin forever.
   */
  maxRequests?: number;
  /** Delay before each reply, to simulate a slow model (e.g. for timeouts). */
  delayMs?: number;
  /** A fixed port (a server coming up where a bot already points); default a free one. */
  port?: number;
}

export const LIMIT_REACHED_TEXT = "[model-server] request limit reached";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function protocolOf(path: string): WireProtocol | undefined {
  if (path.endsWith("/chat/completions")) return "openai";
  if (path.endsWith("/messages")) return "anthropic";
  return undefined;
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const maxRequests = options.maxRequests ?? 50;
  const requests: RecordedRequest[] = [];
  let served = 0;
  let limitReached = false;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const protocol = req.method === "POST" ? protocolOf(path) : undefined;
    if (protocol === undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake model server: no route ${req.method} ${path}` } }));
      return;
    }
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "body is not JSON" } }));
      return;
    }
    const index = served++;
    const parsed = protocol === "openai" ? readOpenAiRequest(body, index) : readAnthropicRequest(body, index);
    let reply: ScriptReply;
    if (index >= maxRequests) {
      limitReached = true;
      reply = { kind: "text", text: LIMIT_REACHED_TEXT };
    } else {
      try {
        reply = await options.script(parsed);
      } catch (error) {
        reply = { kind: "text", text: `[model-server] script threw: ${String(error)}` };
      }
    }
    requests.push({ protocol, path, headers: req.headers, raw, body, parsed, reply });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    const out =
      protocol === "openai" ? writeOpenAiReply(body, index, reply) : writeAnthropicReply(body, index, reply);
    res.writeHead(out.status, out.headers);
    res.end(out.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openAiBaseUrl: `${url}/v1`,
    requests,
    get limitReached() {
      return limitReached;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
