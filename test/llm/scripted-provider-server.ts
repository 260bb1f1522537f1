// A loopback provider for the LLM client tests: each request gets the next scripted step, so a
// test can answer 429 then success, 500 forever, a slow reply, or a reply in the provider's
// real wire format (JSON or SSE, written by the fake model server's protocol writers).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { writeAnthropicReply } from "../support/model-server/anthropic-protocol.js";
import { writeOpenAiReply } from "../support/model-server/openai-protocol.js";
import type { ScriptReply } from "../support/model-server/script.js";

export type Step =
  /** A reply in the wire format of the path called (`/messages` or `/chat/completions`). */
  | { reply: ScriptReply; delayMs?: number; headers?: Record<string, string> }
  /** A raw reply: any status, headers and body. */
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

export interface ReceivedRequest {
  path: string;
  /** Path with the query string. */
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface ScriptedProviderServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** `steps` in order (the last one repeats), or a function of the request number (0-based). */
export async function startScriptedProviderServer(
  steps: Step[] | ((index: number, request: ReceivedRequest) => Step),
): Promise<ScriptedProviderServer> {
  const requests: ReceivedRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      // recorded as {}
    }
    const url = req.url ?? "/";
    const received: ReceivedRequest = {
      path: url.split("?")[0]!,
      url,
      headers: req.headers,
      body,
      at: Date.now(),
    };
    const index = requests.length;
    requests.push(received);
    const step =
      typeof steps === "function" ? steps(index, received) : steps[Math.min(index, steps.length - 1)]!;
    if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    if ("reply" in step) {
      const out = received.path.endsWith("/messages")
        ? writeAnthropicReply(body, index, step.reply)
        : writeOpenAiReply(body, index, step.reply);
      res.writeHead(out.status, { ...out.headers, ...step.headers });
      res.end(out.body);
      return;
    }
    res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
    res.end(step.body ?? "");
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function text(content: string): { reply: ScriptReply } {
  return { reply: { kind: "text", text: content } };
}
