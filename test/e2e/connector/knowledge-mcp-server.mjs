// A minimal external MCP server (stdio) exposing Huginn's tool name `search_knowledge`, so the
// e2e tests can check that the hook also corrects results of MCP search tools. Plain JS so the
// runtime can spawn it with bare `node`.

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "knowledge", version: "0.0.0" });
server.registerTool(
  "search_knowledge",
  { description: "Search the knowledge server.", inputSchema: { query: z.string() } },
  async ({ query }) => ({ content: [{ type: "text", text: `MCP RESULT for '${query}'\n\n*Weak match.*` }] }),
);
await server.connect(new StdioServerTransport());
