// The SessionConfig of one conversation, as a pure function of the bot and its injected parts,
// so "corrective retrieval off means no hook at all" is checkable without a runtime.

import {
  approveAll,
  type MCPServerConfig,
  type ProviderConfig,
  type SessionConfig,
  type Tool,
} from "@github/copilot-sdk";
import { type BotDescription, BotRuntimeError } from "../bot-runtime.js";
import type { PostToolUseHandler } from "./post-tool-use-types.js";

export interface SessionConfigInput {
  bot: BotDescription;
  tools: Tool<unknown>[];
  /** The BYOK key, already read from the bot's `apiKeyEnv`. */
  apiKey?: string;
  /** Present only when corrective retrieval is on for the bot. */
  onPostToolUse?: PostToolUseHandler;
  /** External MCP servers (e.g. a Huginn adapter) whose tools the model may also call. */
  mcpServers?: Record<string, MCPServerConfig>;
  workingDirectory: string;
  streaming?: boolean;
}

export function buildSessionConfig(input: SessionConfigInput): SessionConfig {
  const { bot } = input;
  const config: SessionConfig = {
    clientName: "second-look",
    tools: input.tools,
    // Only the bot's tools: the runtime otherwise offers shell, file and web tools to the model.
    availableTools: [...input.tools.map((t) => t.name), ...(input.mcpServers ? ["mcp:*"] : [])],
    systemMessage: { mode: "replace", content: bot.persona },
    // The runtime would otherwise add AGENTS.md / copilot-instructions from its directories.
    skipCustomInstructions: true,
    onPermissionRequest: approveAll,
    // Compaction and the workspace are for long coding sessions; a bot turn must stay bounded.
    infiniteSessions: { enabled: false },
    workingDirectory: input.workingDirectory,
  };
  if (input.streaming !== undefined) config.streaming = input.streaming;
  if (bot.model !== undefined) config.model = bot.model;
  if (bot.provider) {
    if (bot.model === undefined) {
      throw new BotRuntimeError(
        "config",
        `Bot '${bot.name}' sets a provider but no model; add "model" next to "provider" in its config.`,
      );
    }
    const provider: ProviderConfig = { type: bot.provider.type, baseUrl: bot.provider.baseUrl };
    if (input.apiKey !== undefined) provider.apiKey = input.apiKey;
    config.provider = provider;
  }
  if (input.mcpServers) config.mcpServers = input.mcpServers;
  // No `hooks` key at all when corrective retrieval is off: the runtime then never calls back
  // and the tool output reaches the model exactly as the tool produced it.
  if (input.onPostToolUse) config.hooks = { onPostToolUse: input.onPostToolUse };
  return config;
}

/** A copy safe to hand to observers and logs: the provider key is blanked. */
export function redactSessionConfig(config: SessionConfig): SessionConfig {
  if (!config.provider) return { ...config };
  const provider = { ...config.provider };
  if (provider.apiKey !== undefined) provider.apiKey = "[redacted]";
  if (provider.bearerToken !== undefined) provider.bearerToken = "[redacted]";
  return { ...config, provider };
}
