// One tool call through the official MCP client, read as the tests read it: the text parts
// joined, whether it is an error result, and its structured content.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export interface ToolReply {
  text: string;
  isError: boolean;
  structured: unknown;
}

export async function callAndRead(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options: { timeout?: number } = {},
): Promise<ToolReply> {
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
}
