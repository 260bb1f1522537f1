// `second-look mcp <bot>`: the bot's knowledge as an MCP server on stdio, for MCP clients
// (Claude Code, Claude Desktop, other agents). stdout is the JSON-RPC stream; every log line
// goes to stderr. Runs until the client closes the connection.
import { resolveBot } from "../bots/bot-resolver.js";
import { createKnowledgeMcpServer } from "../connectors/mcp/knowledge-mcp-server.js";
import { serveStdio } from "../connectors/mcp/serve-stdio.js";
import { openBotBackend } from "../connectors/open-bot-backend.js";
import { REFRESH_BUDGET_FOR_ANSWERS_MS } from "../knowledge/index/ingest-limits.js";
import { logger } from "../telemetry/logger.js";
import { withTracing } from "./tracing.js";

export function runMcp(botRef: string): Promise<number> {
  // Spans of every tool call go where the OTEL_* environment says; flushed once stdin closes.
  return withTracing({ keepSpans: false }, () => serveBot(botRef));
}

async function serveBot(botRef: string): Promise<number> {
  const log = logger();
  const bot = await resolveBot(botRef);
  // No progress bar: an embedded index refresh reports through the log, not the terminal.
  // Bounded: an MCP client gives up on a server that does not start. A refresh cut short says so
  // in the log and finishes in the background; answers meanwhile come from the index as it stood.
  const opened = await openBotBackend(bot, {
    refreshBudgetMs: REFRESH_BUDGET_FOR_ANSWERS_MS,
    finishRefreshInBackground: true,
  });
  const refreshed = opened.reports.length;
  if (refreshed > 0) log.info({ bot: bot.name, collections: refreshed }, "mcp: knowledge index ready");
  // A stray rejection in a library must not take down a server other calls are using.
  const onUnhandled = (reason: unknown) =>
    log.error({ err: reason }, "mcp: unhandled rejection (the server keeps running)");
  process.on("unhandledRejection", onUnhandled);
  try {
    const server = createKnowledgeMcpServer({ bot, backend: opened.backend, log });
    log.info(
      { bot: bot.name, collections: opened.backend.collections() },
      `mcp: serving bot ${bot.name} on stdio`,
    );
    await serveStdio(server, log);
    return 0;
  } finally {
    process.off("unhandledRejection", onUnhandled);
    await opened.close();
  }
}
