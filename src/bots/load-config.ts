import { readFile } from "node:fs/promises";
import { errorMessage } from "../errors.js";
import { BotConfigError } from "./config-error.js";
import { type BotConfig, BotConfigSchema } from "./config-schema.js";
import { formatIssues } from "./format-issues.js";
import { checkJsonShape, parseJsonText } from "./parse-json.js";

/** Validate parsed JSON against the bot schema; `file` is the name used in error lines. */
export function validateBotConfig(data: unknown, file: string): BotConfig {
  checkJsonShape(data, file);
  const result = BotConfigSchema.safeParse(data);
  if (result.success) return result.data;
  throw new BotConfigError(file, formatIssues(result.error.issues, data, file, BotConfigSchema));
}

/** Parse and validate the text of a config.json. Throws BotConfigError with every problem found. */
export function parseBotConfig(text: string, file: string): BotConfig {
  return validateBotConfig(parseJsonText(text, file), file);
}

/** What a bot folder's config.json says, plus which top-level keys were written explicitly. */
export interface LoadedBotConfig {
  config: BotConfig;
  /** Top-level keys present in the file (defaults are not), e.g. to tell a configured persona apart. */
  explicitKeys: ReadonlySet<string>;
}

/**
 * Read, parse and validate a config.json. `displayName` is how errors name the file (usually
 * relative to the working directory); it defaults to the path as given.
 */
export async function readBotConfig(path: string, displayName = path): Promise<LoadedBotConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = errorMessage(error);
    throw new BotConfigError(displayName, [`${displayName}: cannot read: ${reason}`]);
  }
  const data = parseJsonText(text, displayName);
  const config = validateBotConfig(data, displayName);
  const explicitKeys = new Set(data !== null && typeof data === "object" ? Object.keys(data) : []);
  return { config, explicitKeys };
}
