// The corrective pass for one MCP tool call. An MCP server lives as long as its client, so the
// corrective settings are resolved again on every call (CORRECTIVE_RETRIEVAL_DISABLED=1 and the
// env defaults apply to the next call, without a restart), but the assembled bot's Corrector (which
// may hold a model grader's client) is rebuilt only when that resolution changes.

import type { BotDefinition } from "../../bots/discovery.js";
import { resolveCorrectiveConfig } from "../../corrective/corrective-config.js";
import type { AssembledBot } from "../assemble-bot.js";
import type { Corrector } from "../search-pipeline.js";

export function correctorPerCall(
  bot: Pick<BotDefinition, "config">,
  assembled: Pick<AssembledBot, "correctorFor">,
  env: NodeJS.ProcessEnv,
): () => Corrector | undefined {
  let settingsKey: string | undefined;
  let current: Corrector | undefined;
  return () => {
    const { source: _source, ...settings } = resolveCorrectiveConfig(bot.config.correctiveRetrieval, env);
    if (!settings.enabled) {
      settingsKey = undefined;
      current = undefined;
      return undefined;
    }
    const key = JSON.stringify(settings);
    if (key !== settingsKey || current === undefined) {
      current = assembled.correctorFor();
      settingsKey = current ? key : undefined;
    }
    return current;
  };
}
