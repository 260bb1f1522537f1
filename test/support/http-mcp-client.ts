// The official MCP client over Streamable HTTP, as Claude Code or Copilot connect to a shared
// knowledge server: a bearer token on every request. For tests and the mcp-http bench.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export interface HttpMcp {
  client: Client;
  call: (
    name: string,
    args?: Record<string, unknown>,
    options?: { timeout?: number },
  ) => Promise<{ text: string; isError: boolean; structured: unknown }>;
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
    call: async (name, args = {}, options = {}) => {
      const result = await client.callTool(
        { name, arguments: args },
        undefined,
        options.timeout ? { timeout: options.timeout } : undefined,
      );
      const content = result.content as { type: string; text?: string }[];
      return {
        text: content.map((c) => c.text ?? "").join(""),
        isError: result.isError === true,
        structured: result.structuredContent,
      };
    },
    close: () => client.close(),
  };
}
