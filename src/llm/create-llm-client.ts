// The LlmClient for a provider as a bot config describes it (docs/design.md §6): `anthropic`,
// `openai` / `azure` (any OpenAI-compatible server), or Copilot when there is no provider. The
// key is read from the environment variable the config names, here and only here; a missing
// variable is a configuration error that names it (never its value).
import { anthropicWire } from "./anthropic-wire.js";
import { createCopilotChatClient } from "./copilot-chat-client.js";
import type { LlmClient } from "./llm-client.js";
import { LlmError } from "./llm-error.js";
import { openAiWire } from "./openai-wire.js";
import type { ProviderConfig } from "./provider-config.js";
import { createSdkChatClient, type SdkClientOptions } from "./sdk-chat-client.js";

/** A bot's provider block, or "copilot" (also what an absent provider means). */
export type LlmProvider = ProviderConfig | "copilot";

export interface CreateLlmClientOptions extends SdkClientOptions {
  /** The bot folder; the copilot provider keeps its runtime state under it. */
  botDir?: string;
  /**
   * Send the provider's `wireModel` instead of `model` (default true). Off when a provider is
   * borrowed for another model than the one its wireModel names (the grader on the bot's provider).
   */
  useWireModel?: boolean;
}

export function createLlmClient(
  provider: LlmProvider | undefined,
  model: string,
  env: NodeJS.ProcessEnv = process.env,
  options: CreateLlmClientOptions = {},
): LlmClient {
  const copilot = provider === undefined || provider === "copilot";
  if (typeof model !== "string" || model.trim() === "") {
    throw new LlmError(copilot ? "copilot" : provider.type, "config", "no model name given");
  }
  if (copilot) {
    if (!options.botDir) {
      throw new LlmError(
        "copilot",
        "config",
        "the copilot provider needs the bot folder (botDir) for its runtime home",
      );
    }
    const { botDir, timeoutMs, log } = options;
    return createCopilotChatClient({ model, botDir, env, timeoutMs, log });
  }
  const apiKey = readKey(provider, env);
  const wireModel = options.useWireModel !== false && provider.wireModel ? provider.wireModel : model;
  const { type } = provider;
  const wire =
    type === "anthropic" ? anthropicWire({ ...provider, apiKey }) : openAiWire({ ...provider, type, apiKey });
  return createSdkChatClient(wire, wireModel, env, options);
}

/** The key from the variable `apiKeyEnv` names; undefined when no variable is named (local servers). */
function readKey(provider: ProviderConfig, env: NodeJS.ProcessEnv): string | undefined {
  const name = provider.apiKeyEnv;
  if (!name) return undefined;
  const value = env[name];
  if (value === undefined || value.trim() === "") {
    throw new LlmError(
      provider.type,
      "config",
      `the environment variable ${name} (named by provider.apiKeyEnv) is not set; export it with the API key`,
    );
  }
  return value.trim();
}
