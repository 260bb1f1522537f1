// A discovered bot, ready to answer: its knowledge backend, its search tool bound to the
// corrective pass, and a Copilot SDK runtime over them.
import type { SessionConfig } from "@github/copilot-sdk";
import type { BotDefinition } from "../bots/discovery.js";
import type { RefreshProgress } from "../knowledge/index/refresh.js";
import { loadOptional } from "../optional-package.js";
import type { KnowledgeBackend } from "../types.js";
import { type AssembledBot, assembleBot } from "./assemble-bot.js";
import type { BotDescription, BotRuntime } from "./bot-runtime.js";
import { openBotBackend } from "./open-bot-backend.js";

export interface OpenedBotRuntime {
  runtime: BotRuntime;
  assembled: AssembledBot;
}

/** Whether the bot names a model to answer with (else `ask` returns corrected results only). */
export function hasModel(bot: Pick<BotDefinition, "config">): boolean {
  return bot.config.model !== undefined;
}

export function describeForRuntime(bot: BotDefinition): BotDescription {
  const description: BotDescription = {
    name: bot.name,
    dir: bot.dir,
    persona: bot.persona,
    limits: { maxToolCalls: bot.config.session.maxToolCalls, timeoutMs: bot.config.session.timeoutMs },
  };
  if (bot.config.model) description.model = bot.config.model;
  const provider = bot.config.provider;
  if (provider) {
    description.provider = { type: provider.type, baseUrl: provider.baseUrl };
    if (provider.apiKeyEnv) description.provider.apiKeyEnv = provider.apiKeyEnv;
  }
  return description;
}

/**
 * The Copilot SDK runtime's module. @github/copilot-sdk is a peer dependency (a Copilot SDK app
 * has it already); loaded here so that `ask` without a model, `search` and `mcp` run without it.
 */
function loadCopilotBotRuntime(bot: BotDefinition) {
  return loadOptional(
    { packages: ["@github/copilot-sdk"], neededFor: `bot ${bot.name}'s model`, layer: "connectors" },
    () => import("./copilot-sdk/copilot-bot-runtime.js"),
  );
}

export async function openBotRuntime(
  bot: BotDefinition,
  options: {
    env?: NodeJS.ProcessEnv;
    onProgress?: RefreshProgress;
    onSessionConfig?: (config: SessionConfig) => void;
    /** A backend to use instead of opening the bot's own (a host that shares one engine, tests). */
    backend?: KnowledgeBackend;
  } = {},
): Promise<OpenedBotRuntime> {
  const env = options.env ?? process.env;
  // Before the backend: a missing SDK is said before minutes of indexing.
  const { createCopilotBotRuntime } = await loadCopilotBotRuntime(bot);
  // A backend opened here is this runtime's to close (a Huginn client's connection pool); one
  // passed in belongs to the caller.
  const opened = options.backend
    ? undefined
    : await openBotBackend(bot, options.onProgress ? { onProgress: options.onProgress } : {});
  const backend = options.backend ?? opened!.backend;
  const assembled = assembleBot(bot, backend, env);
  const copilot = createCopilotBotRuntime({
    bot: describeForRuntime(bot),
    backend: assembled.backend,
    renderResult: assembled.renderResult,
    search: assembled.search,
    collectionLanguages: assembled.languages,
    correctFor: assembled.correctFor,
    env,
    ...(options.onSessionConfig ? { onSessionConfig: options.onSessionConfig } : {}),
  });
  const runtime: BotRuntime = {
    ask: (question, askOptions) => copilot.ask(question, askOptions),
    close: async () => {
      try {
        await copilot.close();
      } finally {
        await opened?.close();
      }
    },
  };
  return { runtime, assembled };
}
