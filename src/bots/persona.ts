import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { errorMessage } from "../errors.js";
import { isInsideFolder } from "../knowledge/documents/inside-folder.js";
import { BotConfigError } from "./config-error.js";
import type { BotConfig } from "./config-schema.js";

/**
 * The system prompt used when a bot has no persona file: enough to make a model search before
 * answering and admit a gap instead of inventing, which is the whole point of the library.
 */
export function defaultPersona(name: string, config: BotConfig): string {
  const about = config.description ? ` ${config.description.trim()}` : "";
  return [
    `You are ${name}, an assistant that answers questions from a document collection.${about}`,
    "Search the knowledge base with the search_knowledge tool before you answer, and base the answer on what it returns.",
    "Cite the documents you used by title.",
    "If the documents do not answer the question, say so plainly instead of guessing.",
  ].join("\n");
}

/**
 * The persona text of a bot in `dir`. A persona file named in config.json must exist; without
 * one, `persona.md` is used when present and the default persona otherwise.
 * The persona must be a file inside the bot folder, both paths resolved (isInsideFolder):
 * config.json must not be able to send any file of the machine (`/etc/passwd`, `../../.env`)
 * to a model as its prompt, and a bot folder reached through a symlink keeps its own files.
 * `configFile` is how errors name the config file.
 */
export async function loadPersona(
  name: string,
  dir: string,
  config: BotConfig,
  personaConfigured: boolean,
  configFile: string,
): Promise<string> {
  const path = resolve(dir, config.persona);
  let text: string;
  try {
    if (!(await isInsideFolder(path, dir))) {
      throw new BotConfigError(configFile, [
        `${configFile}: persona: ${JSON.stringify(config.persona)} (${path}) is outside the bot folder ${resolve(dir)}; persona files must be inside it`,
      ]);
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof BotConfigError) throw error;
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    if (missing && !personaConfigured) return defaultPersona(name, config);
    const reason = missing ? "file not found" : errorMessage(error);
    throw new BotConfigError(configFile, [
      `${configFile}: persona: cannot read ${JSON.stringify(config.persona)} (${path}): ${reason}`,
    ]);
  }
  if (text.trim() === "") {
    throw new BotConfigError(configFile, [
      `${configFile}: persona: ${JSON.stringify(config.persona)} is empty (${path})`,
    ]);
  }
  return text;
}
