// The Slack Web API on 127.0.0.1: answers the methods the host calls and records each call, so a
// test reads what the bot posted where. No request leaves the machine.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SlackCall {
  method: string;
  args: Record<string, string>;
}

export interface FakeSlackApi {
  /** Ends in `/`, as WebClient's slackApiUrl must. */
  url: string;
  calls: SlackCall[];
  /** Calls to one method, in order. */
  of(method: string): SlackCall[];
  /** Make a method fail (`{ ok: false, error }`) from now on. */
  failMethod(method: string, error: string): void;
  close(): Promise<void>;
}

export const BOT_USER_ID = "UBOT";
export const TEAM_ID = "T0001";

async function readBody(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if ((request.headers["content-type"] ?? "").includes("application/json")) {
    return JSON.parse(text || "{}") as Record<string, string>;
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startFakeSlackApi(): Promise<FakeSlackApi> {
  const calls: SlackCall[] = [];
  const failures = new Map<string, string>();
  let nextTs = 1;
  const server: Server = createServer(async (request, response) => {
    const method = (request.url ?? "").replace(/^\/api\//, "").split("?")[0]!;
    const args = await readBody(request);
    calls.push({ method, args });
    const failure = failures.get(method);
    let body: Record<string, unknown>;
    if (failure) body = { ok: false, error: failure };
    else if (method === "auth.test")
      body = { ok: true, user_id: BOT_USER_ID, bot_id: "BBOT", team_id: TEAM_ID };
    else if (method === "chat.postMessage") {
      body = { ok: true, channel: args.channel, ts: `1800000000.${String(nextTs++).padStart(6, "0")}` };
    } else if (method === "chat.update") body = { ok: true, channel: args.channel, ts: args.ts };
    else body = { ok: true };
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    of: (method) => calls.filter((call) => call.method === method),
    failMethod: (method, error) => failures.set(method, error),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
