// An LlmClient over a tool-less Copilot SDK session, so a bot that talks to Copilot (no BYOK
// provider) needs no second key for its grader: the call goes through the same runtime and
// the same sign-in as the bot. Each call is one short session (the prompt replaces the
// runtime's system prompt, no tools are offered), deleted afterwards with its state on disk. The runtime client
// is leased from the shared pool, so inside a running bot it is the bot's own runtime process;
// the SDK is loaded on first use only, so a process that never grades through Copilot never
// loads it.

import type { CopilotSession, SessionConfig, SessionEvent } from "@github/copilot-sdk";
import { DEADLINES, settleBy, untilAborted } from "../deadline.js";
import { errorMessage } from "../errors.js";
import { countOrZero, positiveOrUndefined } from "../limits.js";
import { loadOptional } from "../optional-package.js";
import { type Logger, logger as processLogger } from "../telemetry/logger.js";
import { framedChatClient } from "./chat-client-frame.js";
import { detachSessions } from "./copilot-runtime/detach-sessions.js";
import { runtimeLocation } from "./copilot-runtime/runtime-environment.js";
import type { ClientLease } from "./copilot-runtime/shared-client.js";
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient } from "./llm-client.js";
import { LlmError } from "./llm-error.js";
import { MAX_QUOTED_CHARS, quoteScrubbed, scrubSecrets } from "./secret-scrub.js";

const PROVIDER = "copilot";

/** A BYOK endpoint for the runtime to call instead of Copilot's own models. */
export interface CopilotByok {
  type: "openai" | "anthropic" | "azure";
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface CopilotChatClientOptions {
  model: string;
  /** The bot folder: the runtime's home is `<dir>/.second-look/copilot-home`, as for the bot. */
  botDir: string;
  /** Host environment the runtime's own is built from (sign-in tokens, PATH, proxies). */
  env?: NodeJS.ProcessEnv;
  byok?: CopilotByok;
  /** Bound on one call, runtime start included (default 60 s; a request's `timeoutMs` wins). */
  timeoutMs?: number;
  log?: Logger;
}

/**
 * Copilot names Anthropic models with a dot (`claude-haiku-4.5`) where the Anthropic API uses a
 * dash (`claude-haiku-4-5`, the grader's default): the Copilot form of a dash-named Claude id.
 */
export function copilotModelId(model: string): string {
  const match = /^(claude-[a-z]+)-(\d+)-(\d+)$/.exec(model);
  return match ? `${match[1]}-${match[2]}.${match[3]}` : model;
}

export function createCopilotChatClient(options: CopilotChatClientOptions): LlmClient {
  const log = (options.log ?? processLogger()).child({ llm: PROVIDER });
  const env = options.env ?? process.env;
  const { home } = runtimeLocation(options.botDir);
  const secrets = [options.byok?.apiKey];

  const send = async (request: ChatRequest, model: string, { signal }: { signal: AbortSignal }) => {
    // A peer dependency (src/optional-package.ts): a missing one is named in one line.
    const sdk = await loadOptional(
      { packages: ["@github/copilot-sdk"], neededFor: "the copilot model provider", layer: "llm" },
      () => import("@github/copilot-sdk"),
    );
    // The bot's own runtime process when this runs inside a bot (src/llm/copilot-runtime/shared-client.ts).
    const { acquireBotRuntime } = await import("./copilot-runtime/shared-client.js");
    const { byok } = options;
    const leasing = acquireBotRuntime(
      options.botDir,
      env,
      byok && { type: byok.type, baseUrl: byok.baseUrl, model },
    );
    let lease: ClientLease | undefined;
    let session: CopilotSession | undefined;
    try {
      lease = await untilAborted(leasing, signal);
      const config: SessionConfig = {
        clientName: "second-look-llm",
        model,
        tools: [],
        // No tools at all: the runtime otherwise offers shell, file and web tools.
        availableTools: [],
        systemMessage: { mode: "replace", content: request.system ?? "" },
        skipCustomInstructions: true,
        onPermissionRequest: sdk.approveAll,
        infiniteSessions: { enabled: false },
        workingDirectory: home,
      };
      if (options.byok) {
        config.provider = { type: options.byok.type, baseUrl: options.byok.baseUrl };
        if (options.byok.apiKey) config.provider.apiKey = options.byok.apiKey;
        if (options.byok.headers) config.provider.headers = options.byok.headers;
      }
      session = await untilAborted(lease.client.createSession(config), signal);
      return await untilAborted(turn(session, promptOf(request.messages)), signal);
    } catch (error) {
      if (session && signal.aborted) session.abort().catch(() => undefined);
      throw error;
    } finally {
      // Not awaited: the answer (or the error) is the caller's now. The session is deleted, not
      // just disconnected (which keeps its folder under session-state for a resume that never
      // comes: one folder per grading), before the lease goes, so the runtime is still there.
      if (lease) void discardSession(lease, session).finally(() => lease?.release().catch(() => undefined));
      // A lease still being acquired when the call stopped is released once it arrives.
      else leasing.then((late) => late.release()).catch(() => undefined);
    }
  };

  return framedChatClient({
    provider: PROVIDER,
    spanProvider: options.byok?.type ?? PROVIDER,
    model: options.model,
    timeoutMs: positiveOrUndefined(options.timeoutMs) ?? DEADLINES.copilotChatMs,
    modelName: copilotModelId,
    send,
    failure(error) {
      if (error instanceof LlmError) {
        // A session error quotes the runtime, which may quote the BYOK endpoint's reply.
        // Scrubbed before it is cut (quoteScrubbed), so no part of a key survives the cut.
        error.message = quoteScrubbed(error.message, secrets, 2 * MAX_QUOTED_CHARS);
        return error;
      }
      const message = scrubSecrets(errorMessage(error), secrets);
      log.debug({ err: message }, "llm: copilot session failed");
      return new LlmError(
        PROVIDER,
        "protocol",
        `session failed: ${quoteScrubbed(message, secrets, MAX_QUOTED_CHARS)}`,
      );
    },
  });
}

/**
 * Deletes a one-call session with its state on disk; never throws. A session the runtime cannot
 * delete is disconnected instead (its folder stays, but the runtime lets go of it). Bounded: a
 * runtime that does not answer keeps its lease no longer.
 */
async function discardSession(lease: ClientLease, session: CopilotSession | undefined): Promise<void> {
  if (!session) return;
  const deleted = await settleBy(
    lease.client.deleteSession(session.sessionId).then(
      () => true,
      () => false,
    ),
    AbortSignal.timeout(DEADLINES.copilotSessionDeleteMs),
    false,
  );
  if (!deleted) await detachSessions([session]);
}

/** One prompt, answered: the last root-agent message, with the usage the runtime reported. */
function turn(session: CopilotSession, prompt: string): Promise<ChatResponse> {
  return new Promise<ChatResponse>((resolve, reject) => {
    let text = "";
    let model = "";
    let inputTokens = 0;
    let outputTokens = 0;
    let finishReason: string | undefined;
    const unsubscribe = session.on((event: SessionEvent) => {
      switch (event.type) {
        case "assistant.message":
          if (event.agentId === undefined) text = event.data.content;
          break;
        case "assistant.usage":
          model = event.data.model ?? model;
          inputTokens += countOrZero(event.data.inputTokens);
          outputTokens += countOrZero(event.data.outputTokens);
          if (typeof event.data.finishReason === "string") finishReason = event.data.finishReason;
          break;
        case "session.idle": {
          unsubscribe();
          const response: ChatResponse = { text, model, usage: { inputTokens, outputTokens } };
          if (finishReason) response.finishReason = finishReason;
          resolve(response);
          break;
        }
        case "session.error":
          unsubscribe();
          reject(new LlmError(PROVIDER, "protocol", `session error: ${String(event.data.message)}`));
          break;
      }
    });
    session.send({ prompt }).catch((error: unknown) => {
      unsubscribe();
      reject(error);
    });
  });
}

/** The conversation as one prompt: a single user message as is, a longer one as a transcript. */
function promptOf(messages: readonly ChatMessage[]): string {
  if (messages.length === 1) return messages[0]!.content;
  return messages.map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${m.content}`).join("\n\n");
}
