// BotRuntime over the Copilot SDK: the shared runtime client, a session per conversation with
// the bot's tools, persona and provider, the corrective hook when corrective retrieval is on,
// and a bounded turn per question. Each part is a function of its own: the API key and the
// runtime lease, a session's config (tools and hook sharing the session's search calls), the
// session pool with its eviction, the bounded wait, and one question's turn.

import type { CopilotSession, MCPServerConfig, SessionConfig } from "@github/copilot-sdk";
import { detachSessions } from "../../llm/copilot-runtime/detach-sessions.js";
import { runtimeLocation } from "../../llm/copilot-runtime/runtime-environment.js";
import { acquireBotRuntime, type ClientLease } from "../../llm/copilot-runtime/shared-client.js";
import { providerReachabilityGate, type ReachabilityGate } from "../../llm/provider-reachability.js";
import { startAgentSpan } from "../../telemetry/agent-spans.js";
import { type Logger, logger as processLogger } from "../../telemetry/logger.js";
import { type CollectionLanguage, type KnowledgeBackend, SEARCH_KNOWLEDGE_TOOL } from "../../types.js";
import {
  type AskOptions,
  type AskResult,
  type BotDescription,
  type BotRuntime,
  BotRuntimeError,
  type CorrectFn,
  type RenderDocument,
  type RenderResult,
  type RunSearch,
} from "../bot-runtime.js";
import { toolCallKey } from "./call-key.js";
import { createCorrectiveHook } from "./corrective-hook.js";
import { runGuardedTurn, type TurnContext } from "./guarded-turn.js";
import { createKnowledgeTools } from "./knowledge-tools.js";
import { RememberedCalls } from "./remembered-calls.js";
import { buildSessionConfig, redactSessionConfig } from "./session-config.js";

export interface CopilotBotRuntimeOptions {
  bot: BotDescription;
  backend: KnowledgeBackend;
  renderResult: RenderResult;
  /** Runs each search as one value the corrective hook takes whole (else it reads the text). */
  search?: RunSearch;
  renderDocument?: RenderDocument;
  /** Each collection's document language, named in the search tool's description. */
  collectionLanguages?: Readonly<Record<string, CollectionLanguage>>;
  /** Present only when corrective retrieval is on for this bot; absent means no hook at all. */
  correct?: CorrectFn;
  /**
   * Asked at each session's creation instead of `correct`: the corrective pass for that session,
   * or undefined for none (no hook). This is where the environment is read, so an operator's
   * kill-switch applies to the next conversation without a restart.
   */
  correctFor?: () => CorrectFn | undefined;
  /** Bound on one corrective pass (default 30 s); the question's deadline also applies. */
  correctTimeoutMs?: number;
  /** External MCP servers whose tools the model may call; their `search_knowledge` is corrected too. */
  mcpServers?: Record<string, MCPServerConfig>;
  /** Ask the provider for streamed responses (SSE). */
  streaming?: boolean;
  /** Where `provider.apiKeyEnv` and sign-in tokens are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Sessions kept for follow-ups; the least recently used idle one is closed beyond this. Default 64. */
  maxSessions?: number;
  logger?: Logger;
  /** Observes each session's config (provider key redacted) just before it is created. */
  onSessionConfig?: (config: SessionConfig) => void;
}

interface SessionEntry {
  session: CopilotSession;
  /** The question in flight; read by the hook and the tool handlers. */
  turn: TurnContext | undefined;
  /** Questions on one conversation run one after another. */
  queue: Promise<unknown>;
  busy: number;
  lastUsed: number;
}

const DEFAULT_MAX_SESSIONS = 64;

type StopCode = "timeout" | "aborted" | "closed";

/** The bot's API key from its `provider.apiKeyEnv`, or undefined when it names none. */
function readApiKey(bot: BotDescription, env: NodeJS.ProcessEnv): string | undefined {
  const name = bot.provider?.apiKeyEnv;
  if (!name) return undefined;
  const value = env[name];
  if (value === undefined || value === "") {
    throw new BotRuntimeError(
      "config",
      `Bot '${bot.name}': the environment variable ${name} (provider.apiKeyEnv) is not set.`,
    );
  }
  return value;
}

/** The shared runtime client for this bot's home and provider. */
function acquireLease(bot: BotDescription, env: NodeJS.ProcessEnv): Promise<ClientLease> {
  const { provider, model } = bot;
  const byok = provider && model ? { type: provider.type, baseUrl: provider.baseUrl, model } : undefined;
  return acquireBotRuntime(bot.dir, env, byok);
}

/**
 * A session's config: the bot's tools and, when a pass is on, the corrective hook. Our search
 * tool hands each call (arguments, scope, structured response, span) to the session's waiting
 * calls, and the hook takes it from there by the call's key, so the pass never reads it off the
 * text: the SDK calls the handler and the hook separately and gives the hook no call id
 * (remembered-calls.ts).
 */
export function sessionConfigFor(
  options: CopilotBotRuntimeOptions,
  turn: () => TurnContext | undefined,
  log: Logger,
  apiKey: string | undefined,
): { config: SessionConfig; corrective: boolean } {
  const waiting = new RememberedCalls();
  const tools = createKnowledgeTools({
    backend: options.backend,
    renderResult: options.renderResult,
    ...(options.search
      ? {
          search: options.search,
          onSearchCall: (rawArgs, call) =>
            waiting.remember(toolCallKey(SEARCH_KNOWLEDGE_TOOL, rawArgs), call),
        }
      : {}),
    ...(options.renderDocument ? { renderDocument: options.renderDocument } : {}),
    turnSignal: () => turn()?.signal,
    turnTraceContext: () => turn()?.traceContext,
    ...(options.collectionLanguages ? { collectionLanguages: options.collectionLanguages } : {}),
  });
  const knownServers = Object.keys(options.mcpServers ?? {});
  const correct = options.correctFor ? options.correctFor() : options.correct;
  const onPostToolUse = correct
    ? createCorrectiveHook({
        correct,
        // The search tool's own list (createKnowledgeTools offers these): one allow-list per session.
        scope: options.backend.collections(),
        ...(options.correctTimeoutMs !== undefined ? { timeoutMs: options.correctTimeoutMs } : {}),
        knownServers,
        context: turn,
        takeSearchCall: (toolName, toolArgs, text) => waiting.take(toolCallKey(toolName, toolArgs), text),
        log,
      })
    : undefined;
  const config = buildSessionConfig({
    bot: options.bot,
    tools,
    workingDirectory: runtimeLocation(options.bot.dir).home,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(onPostToolUse ? { onPostToolUse } : {}),
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    ...(options.streaming !== undefined ? { streaming: options.streaming } : {}),
  });
  return { config, corrective: onPostToolUse !== undefined };
}

/** Why a question stopped before its turn began, as the error `ask` rejects with. */
function stoppedError(bot: BotDescription, code: StopCode): BotRuntimeError {
  const why =
    code === "timeout"
      ? `no answer within ${bot.limits.timeoutMs} ms (the Copilot runtime did not start a session in time)`
      : code === "aborted"
        ? "the question was cancelled"
        : "the runtime was closed";
  return new BotRuntimeError(code, `Bot '${bot.name}' stopped: ${why}.`);
}

/** Waits for `pending` within the question's deadline, the caller's signal and close(). */
function startBounded<T>(
  bot: BotDescription,
  pending: Promise<T>,
  deadline: number,
  closing: AbortSignal,
  signal?: AbortSignal,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const fail = (code: StopCode) => reject(stoppedError(bot, code));
    timer = setTimeout(() => fail("timeout"), Math.max(0, deadline - Date.now()));
    const onAbort = () => fail("aborted");
    const onClose = () => fail("closed");
    signal?.addEventListener("abort", onAbort, { once: true });
    closing.addEventListener("abort", onClose, { once: true });
    onStop = () => {
      signal?.removeEventListener("abort", onAbort);
      closing.removeEventListener("abort", onClose);
    };
    if (signal?.aborted) onAbort();
  });
  return Promise.race([pending, stopped]).finally(() => {
    clearTimeout(timer);
    onStop?.();
  });
}

/** The sessions of one runtime, by conversation: created on first use, the idle ones evicted. */
class SessionPool {
  private readonly sessions = new Map<string, Promise<SessionEntry>>();
  /** The sessions already created, for eviction without waiting on ones still starting. */
  private readonly ready = new Map<string, SessionEntry>();
  private lease: Promise<ClientLease> | undefined;
  private closed = false;

  constructor(
    private readonly options: CopilotBotRuntimeOptions,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: Logger,
  ) {}

  entryFor(conversationId: string): Promise<SessionEntry> {
    let pending = this.sessions.get(conversationId);
    if (!pending) {
      const created = this.createEntry(conversationId);
      pending = created;
      this.sessions.set(conversationId, created);
      // A failed creation is forgotten so a later question can try again.
      created.catch(() => {
        if (this.sessions.get(conversationId) === created) this.sessions.delete(conversationId);
      });
    }
    return pending;
  }

  async evictIdle(keep: string): Promise<void> {
    const max = this.options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (this.sessions.size <= max) return;
    const idle = [...this.ready].filter(([id, entry]) => id !== keep && entry.busy === 0);
    idle.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    const evicted = idle.slice(0, this.sessions.size - max);
    for (const [id] of evicted) {
      this.sessions.delete(id);
      this.ready.delete(id);
    }
    await detachSessions(evicted.map(([, entry]) => entry.session));
  }

  /**
   * Detaches every session and releases the runtime client, in bounded time: sessions still
   * being created are not waited for (the client's stop ends them), and the detaching is capped
   * by `detachSessions`, the client's stop by its grace.
   */
  async close(): Promise<void> {
    this.closed = true;
    const created = [...this.ready.values()].map((entry) => entry.session);
    this.sessions.clear();
    this.ready.clear();
    await detachSessions(created);
    const current = this.lease;
    this.lease = undefined;
    if (current) await (await current.catch(() => undefined))?.release();
  }

  private getLease(): Promise<ClientLease> {
    if (!this.lease) {
      const lease = acquireLease(this.options.bot, this.env);
      this.lease = lease;
      // A failed start is not cached, so the next question retries it.
      lease.catch(() => {
        if (this.lease === lease) this.lease = undefined;
      });
    }
    return this.lease;
  }

  private async createEntry(conversationId: string): Promise<SessionEntry> {
    const { bot } = this.options;
    const apiKey = readApiKey(bot, this.env);
    const holder: { entry?: SessionEntry } = {};
    const { config, corrective } = sessionConfigFor(this.options, () => holder.entry?.turn, this.log, apiKey);
    this.options.onSessionConfig?.(redactSessionConfig(config));
    const { client } = await this.getLease();
    const session = await client.createSession(config);
    if (this.closed) {
      // Created after close() began: nothing will use it, and close() did not see it.
      await detachSessions([session]);
      throw new BotRuntimeError("closed", `Bot '${bot.name}': the runtime is closed.`);
    }
    this.log.debug(
      {
        conversationId,
        sessionId: session.sessionId,
        model: bot.model,
        provider: bot.provider?.type ?? "copilot",
        corrective: corrective ? "on" : "off",
      },
      "session created",
    );
    const entry: SessionEntry = {
      session,
      turn: undefined,
      queue: Promise.resolve(),
      busy: 0,
      lastUsed: Date.now(),
    };
    holder.entry = entry;
    this.ready.set(conversationId, entry);
    return entry;
  }
}

export function createCopilotBotRuntime(options: CopilotBotRuntimeOptions): BotRuntime {
  const { bot } = options;
  const env = options.env ?? process.env;
  const log = (options.logger ?? processLogger()).child({ bot: bot.name, connector: "copilot-sdk" });
  const pool = new SessionPool(options, env, log);
  let closed = false;
  // Stops questions in flight when the runtime is closed under them.
  const closing = new AbortController();
  // The Copilot runtime retries a provider that takes no connection for about half a minute
  // before the turn fails; one TCP connect before the turn says the same in milliseconds. A
  // bot without its own provider talks to GitHub Copilot, which is not checked here; one with a
  // provider but no model gets its config error from the session instead.
  const reachability: ReachabilityGate | undefined =
    bot.provider && bot.model ? providerReachabilityGate(bot.provider, env) : undefined;
  const turnOptions = { bot, knownServers: Object.keys(options.mcpServers ?? {}), closing: closing.signal };

  return {
    async ask(question: string, askOptions: AskOptions): Promise<AskResult> {
      if (closed) throw new BotRuntimeError("closed", `Bot '${bot.name}': the runtime is closed.`);
      // The deadline covers everything the user waits for: runtime start, session creation,
      // an earlier question on the same conversation, and the turn itself.
      const deadline = Date.now() + bot.limits.timeoutMs;
      const agent = startAgentSpan(bot.name);
      let entry: SessionEntry;
      try {
        await ensureProviderReachable(bot, reachability, deadline, closing.signal, askOptions.signal);
        const pending = pool.entryFor(askOptions.conversationId);
        entry = await startBounded(bot, pending, deadline, closing.signal, askOptions.signal);
      } catch (error) {
        agent.end(error);
        throw error;
      }
      try {
        return await askInSession(entry, question, deadline, agent, askOptions, turnOptions);
      } finally {
        await pool.evictIdle(askOptions.conversationId).catch(() => undefined);
      }
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      closing.abort();
      await pool.close();
    },
  };
}

/** Rejects with `model_unreachable`, before any session is touched, when the provider is down. */
async function ensureProviderReachable(
  bot: BotDescription,
  reachability: ReachabilityGate | undefined,
  deadline: number,
  closing: AbortSignal,
  signal?: AbortSignal,
): Promise<void> {
  if (!reachability) return;
  const check = await startBounded(bot, reachability.check(), deadline, closing, signal);
  if (check.reachable !== false) return;
  throw new BotRuntimeError(
    "model_unreachable",
    `Bot '${bot.name}' cannot reach its model server: ${check.reason}; ` +
      `is it running? check provider.baseUrl in ${bot.dir}/config.json`,
  );
}

/** One question's turn on its session, after the questions before it on the same conversation. */
async function askInSession(
  entry: SessionEntry,
  question: string,
  deadline: number,
  agent: ReturnType<typeof startAgentSpan>,
  askOptions: AskOptions,
  turn: { bot: BotDescription; knownServers: string[]; closing: AbortSignal },
): Promise<AskResult> {
  const { bot } = turn;
  entry.busy += 1;
  const run = entry.queue.then(() =>
    runGuardedTurn(entry.session, question, {
      botName: bot.name,
      limits: bot.limits,
      deadline,
      traceContext: agent.context,
      provider: bot.provider?.type ?? "copilot",
      closing: turn.closing,
      knownServers: turn.knownServers,
      ...(askOptions.signal ? { signal: askOptions.signal } : {}),
      setContext: (context) => {
        entry.turn = context;
      },
    }),
  );
  entry.queue = run.catch(() => undefined);
  try {
    const result = await run;
    agent.end();
    return result;
  } catch (error) {
    agent.end(error);
    throw error;
  } finally {
    entry.busy -= 1;
    entry.lastUsed = Date.now();
  }
}
