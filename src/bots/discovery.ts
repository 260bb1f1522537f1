import { readdir, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { backendEntry } from "../backends/registry.js";
import {
  describeCorrective,
  type ResolvedCorrectiveConfig,
  resolveCorrectiveConfig,
} from "../corrective/corrective-config.js";
import { errorMessage, SecondLookError } from "../errors.js";
import { type Logger, logger } from "../telemetry/logger.js";
import type { BotsErrorCode } from "./config-error.js";
import type { BotConfig } from "./config-schema.js";
import { readBotConfig } from "./load-config.js";
import { loadPersona } from "./persona.js";

export const DEFAULT_BOTS_ROOT = "./bots";
export const CONFIG_FILE = "config.json";

export interface BotDefinition {
  /** The folder name. */
  name: string;
  /** Absolute path of the bot folder; collection globs and the persona are relative to it. */
  dir: string;
  /** Absolute path of its config.json. */
  configFile: string;
  /** Validated, defaults applied (the correctiveRetrieval block is kept as written). */
  config: BotConfig;
  /** The system prompt text. */
  persona: string;
  /**
   * Corrective settings resolved at load time, for display. A session factory must call
   * resolveCorrectiveConfig(config.correctiveRetrieval) again when it creates a session, so the
   * kill-switch applies to long-running hosts without a reload.
   */
  corrective: ResolvedCorrectiveConfig;
}

export interface BotFailure {
  name: string;
  dir: string;
  /** The clear, possibly multi-line, reason (each line names the file and the key). */
  error: string;
}

export interface DiscoveryResult {
  /** Absolute path of the folder that was scanned. */
  root: string;
  /** Loaded bots, sorted by name. */
  bots: BotDefinition[];
  /** Bots whose folder has a config.json that could not be used, sorted by name. */
  failures: BotFailure[];
}

export interface LoadOptions {
  /** Base for relative paths and for how files are named in errors (default: process.cwd()). */
  cwd?: string;
  /** Skip the per-bot log line (e.g. `second-look bots`, which prints the same facts). */
  quiet?: boolean;
  /** Defaults to the process logger at call time. */
  log?: Logger;
}

/** Not found as a name under the bots folder nor as a path to a bot folder. */
export class BotNotFoundError extends SecondLookError<BotsErrorCode> {
  override readonly name = "BotNotFoundError";
  constructor(message: string) {
    super("bots", "not-found", message);
  }
}

function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/** Names of the bot folders (sub-folders holding a config.json) under `root`, sorted. */
export async function listBotNames(root: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const names: string[] = [];
  for (const entry of entries) {
    // Hidden folders hold caches and editor state (.second-look index files), never bots.
    if (entry.startsWith(".")) continue;
    if ((await isDirectory(join(root, entry))) && (await isFile(join(root, entry, CONFIG_FILE)))) {
      names.push(entry);
    }
  }
  return names.sort();
}

/** `embedded (1 collection)` or `huginn http://… (2 collections)`. */
export function describeKnowledge(config: BotConfig): string {
  return backendEntry(config.knowledge.backend).describe(config.knowledge);
}

/** The discovery log line: `bot handbook: embedded (1 collection) · correctiveRetrieval: on (…)`. */
export function describeBot(bot: Pick<BotDefinition, "name" | "config" | "corrective">): string {
  return `bot ${bot.name}: ${describeKnowledge(bot.config)} · ${describeCorrective(bot.corrective)}`;
}

/** The collections a bot may search: its embedded collections, or its allowed Huginn ones. */
export function botCollections(config: BotConfig): string[] {
  return backendEntry(config.knowledge.backend).collections(config.knowledge);
}

function logLoaded(bot: BotDefinition, log: Logger): void {
  log.info(
    {
      bot: bot.name,
      dir: bot.dir,
      backend: bot.config.knowledge.backend,
      collections: botCollections(bot.config),
      correctiveRetrieval: {
        enabled: bot.corrective.enabled,
        grader: bot.corrective.grader,
        retryBudget: bot.corrective.retryBudget,
        source: bot.corrective.source.enabled,
      },
    },
    describeBot(bot),
  );
}

/** Load the bot in folder `dir` (which must hold a config.json). Throws BotConfigError. */
export async function loadBotFromDir(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<BotDefinition> {
  const absDir = resolve(cwd, dir);
  const name = basename(absDir);
  const configFile = join(absDir, CONFIG_FILE);
  const shownConfig = display(configFile, cwd);
  const { config, explicitKeys } = await readBotConfig(configFile, shownConfig);
  const persona = await loadPersona(name, absDir, config, explicitKeys.has("persona"), shownConfig);
  const corrective = resolveCorrectiveConfig(config.correctiveRetrieval, env);
  return { name, dir: absDir, configFile, config, persona, corrective };
}

/**
 * Every bot under `root` (a folder with a config.json is a bot). A bot whose config cannot be
 * used is reported in `failures` and does not stop the others. Logs one info line per bot and
 * one warn line per failure. A missing root means no bots.
 */
export async function discoverBots(
  root: string = DEFAULT_BOTS_ROOT,
  env: NodeJS.ProcessEnv = process.env,
  options: LoadOptions = {},
): Promise<DiscoveryResult> {
  const cwd = options.cwd ?? process.cwd();
  const absRoot = resolve(cwd, root);
  const names = await listBotNames(absRoot);
  const outcomes = await Promise.all(
    names.map(async (name) => {
      const dir = join(absRoot, name);
      try {
        return { bot: await loadBotFromDir(dir, env, cwd) };
      } catch (error) {
        const message = errorMessage(error);
        return { failure: { name, dir, error: message } satisfies BotFailure };
      }
    }),
  );
  const log = options.log ?? logger();
  const bots: BotDefinition[] = [];
  const failures: BotFailure[] = [];
  for (const outcome of outcomes) {
    if (outcome.bot) {
      bots.push(outcome.bot);
      if (!options.quiet) logLoaded(outcome.bot, log);
    } else {
      failures.push(outcome.failure);
      if (!options.quiet) {
        log.warn(
          { bot: outcome.failure.name, dir: outcome.failure.dir, error: outcome.failure.error },
          `bot ${outcome.failure.name}: not loaded: ${outcome.failure.error.split("\n").join("; ")}`,
        );
      }
    }
  }
  return { root: absRoot, bots, failures };
}

function looksLikePath(arg: string): boolean {
  return isAbsolute(arg) || arg.startsWith(".") || arg.includes("/") || arg.includes(sep);
}

/**
 * Load one bot given as a name under the bots folder (`handbook`) or a path to a bot folder
 * (`./bots/handbook`, `/srv/bots/handbook`, or its config.json). A bare word is tried as a name
 * first, then as a folder in the working directory. Throws BotNotFoundError (listing the
 * available names) or BotConfigError. Logs the bot's line unless quiet.
 */
export async function loadBot(
  pathOrName: string,
  options: LoadOptions & { botsRoot?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<BotDefinition> {
  const cwd = options.cwd ?? process.cwd();
  const root = resolve(cwd, options.botsRoot ?? DEFAULT_BOTS_ROOT);
  const asPath = resolve(cwd, pathOrName);
  const candidates = looksLikePath(pathOrName) ? [asPath] : [join(root, pathOrName), asPath];
  if (basename(asPath) === CONFIG_FILE && (await isFile(asPath))) candidates.unshift(dirname(asPath));

  let folderWithoutConfig: string | undefined;
  for (const dir of candidates) {
    if (!(await isDirectory(dir))) continue;
    if (!(await isFile(join(dir, CONFIG_FILE)))) {
      folderWithoutConfig ??= dir;
      continue;
    }
    const bot = await loadBotFromDir(dir, options.env ?? process.env, cwd);
    if (!options.quiet) logLoaded(bot, options.log ?? logger());
    return bot;
  }

  if (folderWithoutConfig !== undefined) {
    throw new BotNotFoundError(
      `${display(folderWithoutConfig, cwd)} is not a bot folder: it has no ${CONFIG_FILE}`,
    );
  }
  const available = await listBotNames(root).catch(() => []);
  const listing = available.length > 0 ? `available: ${available.join(", ")}` : "there are none";
  throw new BotNotFoundError(
    `no bot ${JSON.stringify(pathOrName)}: not a bot name under ${display(root, cwd)} (${listing}) ` +
      `and not a path to a bot folder (a folder with ${CONFIG_FILE})`,
  );
}
