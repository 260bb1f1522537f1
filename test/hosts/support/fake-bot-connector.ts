// The Bot Connector API on 127.0.0.1 (the `serviceUrl` of the activities a test sends): records
// every activity the bot creates or updates and answers with an id, as the Teams service does.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ConnectorCall {
  verb: "create" | "update";
  conversationId: string;
  /** The updated activity's id (update only). */
  activityId?: string;
  activity: { type?: string; text?: string; textFormat?: string; id?: string };
  authorization: string | undefined;
}

export interface FakeBotConnector {
  url: string;
  calls: ConnectorCall[];
  of(verb: ConnectorCall["verb"]): ConnectorCall[];
  close(): Promise<void>;
}

export async function startFakeBotConnector(): Promise<FakeBotConnector> {
  const calls: ConnectorCall[] = [];
  let next = 1;
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const activity = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as ConnectorCall["activity"];
    const match = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(request.url ?? "");
    if (!match) {
      response.writeHead(404).end();
      return;
    }
    const conversationId = decodeURIComponent(match[1]!);
    const authorization = request.headers.authorization;
    if (request.method === "POST" && !match[2]) {
      const id = `bot-activity-${next++}`;
      calls.push({ verb: "create", conversationId, activity, authorization });
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id }));
    } else if (request.method === "PUT" && match[2]) {
      const activityId = decodeURIComponent(match[2]);
      calls.push({ verb: "update", conversationId, activityId, activity, authorization });
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: activityId }));
    } else {
      response.writeHead(405).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    of: (verb) => calls.filter((call) => call.verb === verb),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An unsigned token the SDK can decode: the bot's outgoing calls carry it, nothing verifies it. */
export function fakeBotToken(): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none", typ: "JWT" })}.${encode({ aud: "https://api.botframework.com", appid: "app-id", exp: 4_102_444_800 })}.sig`;
}
