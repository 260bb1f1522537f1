// `second-look mcp <bot>`: the bot's knowledge as an MCP server on stdio, for MCP clients
// (Claude Code, Claude Desktop, other agents). stdout is the JSON-RPC stream; every log line
// goes to stderr. Runs until the client closes the connection.
// `second-look mcp <bot…> --http [host:]port`: the same tools over Streamable HTTP for a whole
// team, with bearer tokens (src/connectors/mcp/serve-http.ts), until SIGINT/SIGTERM.
import { resolveBots } from "../bots/bot-resolver.js";
import type { BotDefinition } from "../bots/discovery.js";
import { callLimiter, DEFAULT_CONCURRENT_CALLS } from "../connectors/mcp/call-limiter.js";
import { knowledgeTools } from "../connectors/mcp/knowledge-mcp-server.js";
import { loadTokens, TOKENS_ENV, type TokenStore } from "../connectors/mcp/mcp-tokens.js";
import {
  checkBotNames,
  HTTP_DEFAULTS,
  MCP_PATH,
  parseListenAddress,
  startHttpMcp,
} from "../connectors/mcp/serve-http.js";
import { serveStdio } from "../connectors/mcp/serve-stdio.js";
import { type OpenedBackend, openBotBackend } from "../connectors/open-bot-backend.js";
import { refreshBudgetForAnswers } from "../knowledge/index/ingest-limits.js";
import { type Logger, logger } from "../telemetry/logger.js";
import { CliError } from "./cli-error.js";
import { untilSignal, wholeOption } from "./cli-options.js";
import { progressLines } from "./progress.js";
import { withTracing } from "./tracing.js";

export interface McpOptions {
  http?: string;
  tokensFile?: string;
  maxBody?: string;
  rate?: string;
  maxCalls?: string;
  shutdownTimeout?: string;
}

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

export interface McpDeps {
  env: NodeJS.ProcessEnv;
  /** Resolves with the signal's name when the HTTP server is asked to stop. */
  untilStopped: () => Promise<string>;
}

export function runMcp(
  botRefs: readonly string[],
  options: McpOptions = {},
  io: Io = { stdout: process.stdout, stderr: process.stderr },
  deps: McpDeps = { env: process.env, untilStopped: untilSignal },
): Promise<number> {
  if (options.http === undefined && botRefs.length !== 1) {
    throw new CliError("over stdio, mcp serves one bot; several bots need --http [host:]port");
  }
  // Spans of every tool call go where the OTEL_* environment says; flushed once serving ends.
  return withTracing({ keepSpans: false }, () =>
    options.http === undefined ? serveStdioBot(botRefs[0]!) : serveHttpBots(botRefs, options, io, deps),
  );
}

/**
 * Opens a bot's backend, bounded: an MCP client gives up on a server that does not start. A
 * refresh cut short says so in the log and finishes in the background; answers meanwhile come
 * from the index as it stood. No progress bar: the log reports indexing at a bounded rate
 * (progressLines), so a client's log shows a first index advancing.
 */
async function openForAnswers(bot: BotDefinition, log: Logger): Promise<OpenedBackend> {
  const progress = progressLines((line) => log.info({ bot: bot.name }, `mcp: ${line}`));
  const opened = await openBotBackend(bot, {
    refreshBudgetMs: refreshBudgetForAnswers(bot.config.knowledge.ingest),
    finishRefreshInBackground: true,
    onProgress: progress.update,
  });
  const refreshed = opened.reports.length;
  if (refreshed > 0) log.info({ bot: bot.name, collections: refreshed }, "mcp: knowledge index ready");
  return opened;
}

/** A stray rejection in a library must not take down a server other calls are using. */
async function keepRunning<T>(log: Logger, serve: () => Promise<T>): Promise<T> {
  const onUnhandled = (reason: unknown) =>
    log.error({ err: reason }, "mcp: unhandled rejection (the server keeps running)");
  process.on("unhandledRejection", onUnhandled);
  try {
    return await serve();
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
}

async function serveStdioBot(botRef: string): Promise<number> {
  const log = logger();
  const [bot] = await resolveBots([botRef]);
  const opened = await openForAnswers(bot!, log);
  try {
    return await keepRunning(log, async () => {
      const server = knowledgeTools({ bot: bot!, backend: opened.backend, log }).newServer();
      log.info(
        { bot: bot!.name, collections: opened.backend.collections() },
        `mcp: serving bot ${bot!.name} on stdio`,
      );
      await serveStdio(server, log);
      return 0;
    });
  } finally {
    await opened.close();
  }
}

async function httpTokens(options: McpOptions, env: NodeJS.ProcessEnv): Promise<TokenStore> {
  const tokens = await loadTokens({ env, ...(options.tokensFile ? { file: options.tokensFile } : {}) });
  if (tokens.size === 0) {
    throw new CliError(`--http needs tokens: set ${TOKENS_ENV} (comma-separated) or pass --tokens-file`);
  }
  return tokens;
}

async function serveHttpBots(botRefs: readonly string[], options: McpOptions, io: Io, deps: McpDeps) {
  const log = logger();
  const address = parseListenAddress(options.http!);
  const maxBodyBytes = wholeOption(
    options.maxBody,
    "--max-body",
    HTTP_DEFAULTS.maxBodyBytes,
    1_024,
    100 * 1024 * 1024,
  );
  const requestsPerMinute = wholeOption(
    options.rate,
    "--rate",
    HTTP_DEFAULTS.requestsPerMinute,
    1,
    1_000_000,
  );
  const maxCalls = wholeOption(options.maxCalls, "--max-calls", DEFAULT_CONCURRENT_CALLS, 1, 10_000);
  const shutdownSeconds = wholeOption(
    options.shutdownTimeout,
    "--shutdown-timeout",
    HTTP_DEFAULTS.shutdownMs / 1_000,
    1,
    3_600,
  );
  const tokens = await httpTokens(options, deps.env);
  const bots = await resolveBots(botRefs, { env: deps.env });
  // Before any index is opened: two bots of one name would share a path.
  checkBotNames(bots);
  warnUnknownScopes(tokens, bots, log);
  // One limit for the whole process: every bot's calls share its CPU.
  const limiter = callLimiter(maxCalls);
  const opened: OpenedBackend[] = [];
  try {
    for (const bot of bots) opened.push(await openForAnswers(bot, log));
    return await keepRunning(log, async () => {
      const served = bots.map((bot, i) => ({
        name: bot.name,
        dir: bot.dir,
        tools: knowledgeTools({ bot, backend: opened[i]!.backend, log, limiter }),
      }));
      const http = await startHttpMcp({
        bots: served,
        tokens,
        ...address,
        maxBodyBytes,
        requestsPerMinute,
        log,
      });
      for (const bot of served) {
        const path = bots.length === 1 ? MCP_PATH : `${MCP_PATH}/${encodeURIComponent(bot.name)}`;
        io.stdout.write(`serving ${bot.name} at ${http.origin}${path}\n`);
      }
      log.info(
        { origin: http.origin, bots: served.map((b) => b.name), tokens: tokens.size },
        "mcp: serving over HTTP",
      );
      const signal = await deps.untilStopped();
      log.info(
        { signal, inFlight: http.inFlight(), shutdownSeconds },
        "mcp: stopping, finishing requests in flight",
      );
      const { unfinished } = await http.close(shutdownSeconds * 1_000);
      if (unfinished > 0) log.warn({ unfinished }, "mcp: requests cut off at shutdown");
      io.stdout.write("stopped\n");
      return 0;
    });
  } finally {
    await Promise.all(opened.map((o) => o.close()));
  }
}

/** A scope naming a bot this server does not serve is likely a typo: one warning per scope. */
function warnUnknownScopes(tokens: TokenStore, bots: readonly BotDefinition[], log: Logger): void {
  const names = bots.map((bot) => bot.name);
  for (const grant of tokens.grants) {
    for (const scope of grant.scopes) {
      if (scope.kind !== "all" && !names.includes(scope.bot)) {
        log.warn(
          { token: grant.label, bot: scope.bot },
          `mcp: ${grant.label} names bot ${scope.bot}, which this server does not serve`,
        );
      }
    }
  }
}
