// BotRuntime over the Copilot SDK: the shared runtime client, a session per conversation with
// the bot's tools, persona and provider, the corrective hook when corrective retrieval is on,
// and a bounded turn per question.

import type { CopilotSession, MCPServerConfig, SessionConfig } from "@github/copilot-sdk";
import { runtimeEnvironment, runtimeLocation } from "../../llm/copilot-runtime/runtime-environment.js";
import { acquireCopilotClient, type ClientLease } from "../../llm/copilot-runtime/shared-client.js";
import { providerReachabilityGate, type ReachabilityGate } from "../../llm/provider-reachability.js";
import { startAgentSpan } from "../../telemetry/agent-spans.js";
import { type Logger, logger as processLogger } from "../../telemetry/logger.js";
import type { CollectionLanguage, KnowledgeBackend } from "../../types.js";
import {
  type AskOptions,
  type AskResult,
  type BotDescription,
  type BotRuntime,
  BotRuntimeError,
  type CorrectFn,
  type RenderDocument,
  type RenderResult,
} from "../bot-runtime.js";
import { createCorrectiveHook } from "./corrective-hook.js";
import { runGuardedTurn, type TurnContext } from "./guarded-turn.js";
import { createKnowledgeTools } from "./knowledge-tools.js";
import { buildSessionConfig, redactSessionConfig } from "./session-config.js";

export interface CopilotBotRuntimeOptions {
  bot: BotDescription;
  backend: KnowledgeBackend;
  renderResult: RenderResult;
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

export function createCopilotBotRuntime(options: CopilotBotRuntimeOptions): BotRuntime {
  const { bot } = options;
  const env = options.env ?? process.env;
  const log = (options.logger ?? processLogger()).child({ bot: bot.name, connector: "copilot-sdk" });
  const location = runtimeLocation(bot.dir);
  const sessions = new Map<string, Promise<SessionEntry>>();
  /** The sessions already created, for eviction without waiting on ones still starting. */
  const ready = new Map<string, SessionEntry>();
  let lease: Promise<ClientLease> | undefined;
  let closed = false;
  // Stops questions in flight when the runtime is closed under them.
  const closing = new AbortController();
  // The Copilot runtime retries a provider that takes no connection for about half a minute
  // before the turn fails; one TCP connect before the turn says the same in milliseconds. A
  // bot without its own provider talks to GitHub Copilot, which is not checked here; one with a
  // provider but no model gets its config error from the session instead.
  const reachability: ReachabilityGate | undefined =
    bot.provider && bot.model ? providerReachabilityGate(bot.provider, env) : undefined;

  const readApiKey = (): string | undefined => {
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
  };

  const getLease = (): Promise<ClientLease> => {
    lease ??= acquireCopilotClient({
      home: location.home,
      baseDirectory: location.baseDirectory,
      env: runtimeEnvironment({
        hostEnv: env,
        home: location.home,
        ...(bot.provider && bot.model
          ? { provider: { type: bot.provider.type, baseUrl: bot.provider.baseUrl, model: bot.model } }
          : {}),
      }),
      useLoggedInUser: bot.provider === undefined,
    });
    // A failed start is not cached, so the next question retries it.
    lease.catch(() => {
      lease = undefined;
    });
    return lease;
  };

  const createEntry = async (conversationId: string): Promise<SessionEntry> => {
    const apiKey = readApiKey();
    const holder: { entry?: SessionEntry } = {};
    const turnSignal = () => holder.entry?.turn?.signal;
    const tools = createKnowledgeTools({
      backend: options.backend,
      renderResult: options.renderResult,
      ...(options.renderDocument ? { renderDocument: options.renderDocument } : {}),
      turnSignal,
      turnTraceContext: () => holder.entry?.turn?.traceContext,
      ...(options.collectionLanguages ? { collectionLanguages: options.collectionLanguages } : {}),
    });
    const knownServers = Object.keys(options.mcpServers ?? {});
    const correct = options.correctFor ? options.correctFor() : options.correct;
    const onPostToolUse = correct
      ? createCorrectiveHook({
          correct,
          ...(options.correctTimeoutMs !== undefined ? { timeoutMs: options.correctTimeoutMs } : {}),
          knownServers,
          context: () => holder.entry?.turn,
          log,
        })
      : undefined;
    const config = buildSessionConfig({
      bot,
      tools,
      workingDirectory: location.home,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(onPostToolUse ? { onPostToolUse } : {}),
      ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
      ...(options.streaming !== undefined ? { streaming: options.streaming } : {}),
    });
    options.onSessionConfig?.(redactSessionConfig(config));
    const { client } = await getLease();
    const session = await client.createSession(config);
    log.debug(
      {
        conversationId,
        sessionId: session.sessionId,
        model: bot.model,
        provider: bot.provider?.type ?? "copilot",
        corrective: onPostToolUse ? "on" : "off",
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
    ready.set(conversationId, entry);
    return entry;
  };

  const evictIdleSessions = async (keep: string): Promise<void> => {
    const max = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (sessions.size <= max) return;
    const idle = [...ready].filter(([id, entry]) => id !== keep && entry.busy === 0);
    idle.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [id, entry] of idle.slice(0, sessions.size - max)) {
      sessions.delete(id);
      ready.delete(id);
      await entry.session.disconnect().catch(() => undefined);
    }
  };

  const entryFor = (conversationId: string): Promise<SessionEntry> => {
    let pending = sessions.get(conversationId);
    if (!pending) {
      pending = createEntry(conversationId);
      sessions.set(conversationId, pending);
      // A failed creation is forgotten so a later question can try again.
      pending.catch(() => {
        if (sessions.get(conversationId) === pending) sessions.delete(conversationId);
      });
    }
    return pending;
  };

  /** Waits for a session within the question's deadline, the caller's signal and close(). */
  const startBounded = <T>(pending: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      const fail = (code: "timeout" | "aborted" | "closed") => {
        const why =
          code === "timeout"
            ? `no answer within ${bot.limits.timeoutMs} ms (the Copilot runtime did not start a session in time)`
            : code === "aborted"
              ? "the question was cancelled"
              : "the runtime was closed";
        reject(new BotRuntimeError(code, `Bot '${bot.name}' stopped: ${why}.`));
      };
      timer = setTimeout(() => fail("timeout"), Math.max(0, deadline - Date.now()));
      const onAbort = () => fail("aborted");
      const onClose = () => fail("closed");
      signal?.addEventListener("abort", onAbort, { once: true });
      closing.signal.addEventListener("abort", onClose, { once: true });
      onStop = () => {
        signal?.removeEventListener("abort", onAbort);
        closing.signal.removeEventListener("abort", onClose);
      };
      if (signal?.aborted) onAbort();
    });
    return Promise.race([pending, stopped]).finally(() => {
      clearTimeout(timer);
      onStop?.();
    });
  };

  /** Rejects with `model_unreachable`, before any session is touched, when the provider is down. */
  const ensureProviderReachable = async (deadline: number, signal?: AbortSignal): Promise<void> => {
    if (!reachability) return;
    const check = await startBounded(reachability.check(), deadline, signal);
    if (check.reachable !== false) return;
    throw new BotRuntimeError(
      "model_unreachable",
      `Bot '${bot.name}' cannot reach its model server: ${check.reason}; ` +
        `is it running? check provider.baseUrl in ${bot.dir}/config.json`,
    );
  };

  return {
    async ask(question: string, askOptions: AskOptions): Promise<AskResult> {
      if (closed) throw new BotRuntimeError("closed", `Bot '${bot.name}': the runtime is closed.`);
      // The deadline covers everything the user waits for: runtime start, session creation,
      // an earlier question on the same conversation, and the turn itself.
      const deadline = Date.now() + bot.limits.timeoutMs;
      const agent = startAgentSpan(bot.name);
      let entry: SessionEntry;
      try {
        await ensureProviderReachable(deadline, askOptions.signal);
        entry = await startBounded(entryFor(askOptions.conversationId), deadline, askOptions.signal);
      } catch (error) {
        agent.end(error);
        throw error;
      }
      entry.busy += 1;
      const run = entry.queue.then(() =>
        runGuardedTurn(entry.session, question, {
          botName: bot.name,
          limits: bot.limits,
          deadline,
          traceContext: agent.context,
          provider: bot.provider?.type ?? "copilot",
          closing: closing.signal,
          knownServers: Object.keys(options.mcpServers ?? {}),
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
        await evictIdleSessions(askOptions.conversationId).catch(() => undefined);
      }
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      closing.abort();
      const pending = [...sessions.values()];
      sessions.clear();
      ready.clear();
      for (const p of pending) {
        const entry = await p.catch(() => undefined);
        await entry?.session.disconnect().catch(() => undefined);
      }
      const current = lease;
      lease = undefined;
      if (current) await (await current.catch(() => undefined))?.release();
    },
  };
}
