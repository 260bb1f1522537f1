// An MCP client connected in memory to createKnowledgeMcpServer, for tests that need the real
// tool handlers (the assembled bot, corrective pass, rendering) without a child process.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { pino } from "pino";
import { type BotConfigInput, BotConfigSchema } from "../../../src/bots/config-schema.js";
import { createKnowledgeMcpServer } from "../../../src/connectors/mcp/knowledge-mcp-server.js";
import type { KnowledgeBackend } from "../../../src/types.js";

export const silent = pino({ level: "silent" });

export interface Harness {
  client: Client;
  /** The text of one tool call's result, and whether it is an error result. */
  call: (name: string, args?: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;
  close: () => Promise<void>;
}

export async function connectInMemory(options: {
  config: BotConfigInput;
  backend: KnowledgeBackend;
  env: NodeJS.ProcessEnv;
  callTimeoutMs?: number;
}): Promise<Harness> {
  const config = BotConfigSchema.parse(options.config);
  const server = createKnowledgeMcpServer({
    bot: { name: "test-bot", config },
    backend: options.backend,
    env: options.env,
    log: silent,
    ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test-client", version: "0.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    call: async (name, args = {}) => {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      return { text: content.map((c) => c.text ?? "").join(""), isError: result.isError === true };
    },
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
