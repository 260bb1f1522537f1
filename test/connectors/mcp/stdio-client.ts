// `second-look mcp <bot>` spawned from source and connected to the official MCP client over
// stdio, as Claude Code or Claude Desktop would run it. Everything the server writes to stderr is
// kept (and drained, so a chatty server never blocks on a full pipe); anything on stdout that is
// not JSON-RPC surfaces as a client error.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { callAndRead } from "../../support/mcp-call.js";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, "../../..");
const CLI = resolve(here, "second-look-cli.ts");

export interface StdioMcp {
  client: Client;
  pid: number;
  stderr: () => string;
  /** Errors the client saw on the connection (unparseable stdout lands here). */
  clientErrors: Error[];
  call: (
    name: string,
    args?: Record<string, unknown>,
    options?: { timeout?: number },
  ) => Promise<{ text: string; isError: boolean }>;
  close: () => Promise<void>;
}

export async function spawnStdioMcp(botDir: string, env: Record<string, string> = {}): Promise<StdioMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", CLI, "mcp", botDir],
    cwd: REPO,
    env: { SECOND_LOOK_LOG_LEVEL: "info", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const clientErrors: Error[] = [];
  const client = new Client({ name: "second-look-test", version: "0.0.0" });
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? -1,
    stderr: () => stderr,
    clientErrors,
    call: async (name, args = {}, options = {}) => {
      const { text, isError } = await callAndRead(client, name, args, options);
      return { text, isError };
    },
    close: () => client.close(),
  };
}
