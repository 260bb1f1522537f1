// The official MCP client over Streamable HTTP, as Claude Code or Copilot connect to a shared
// knowledge server: a bearer token on every request. For tests and the mcp-http bench.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { callAndRead, type ToolReply } from "./mcp-call.js";

export interface HttpMcp {
  client: Client;
  call: (name: string, args?: Record<string, unknown>, options?: { timeout?: number }) => Promise<ToolReply>;
  close: () => Promise<void>;
}

export async function connectHttpMcp(url: string, token?: string): Promise<HttpMcp> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  const client = new Client({ name: "second-look-http-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    call: (name, args = {}, options = {}) => callAndRead(client, name, args, options),
    close: () => client.close(),
  };
}
