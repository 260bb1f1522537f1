// How every command finds its bots: `serve`, `mcp`, `bots`, `eval`, `calibrate`, `search`, `ask`
// and `index` take a bot as a name under ./bots (a clone's layout) or as a path to a bot folder
// (`./my-bot`, the layout of a project that installed the package), and the listing looks in
// both places. One bot is found by loadBot (src/bots/discovery.ts); this module adds the lists.
import { resolve } from "node:path";
import { errorMessage } from "../errors.js";
import { type Logger, logger } from "../telemetry/logger.js";
import {
  type BotDefinition,
  type BotFailure,
  BotNotFoundError,
  DEFAULT_BOTS_ROOT,
  type DiscoveryResult,
  describeBot,
  discoverBots,
  loadBot,
} from "./discovery.js";

/** One bot by name or path (the single rule lives in loadBot). */
export { loadBot as resolveBot };

export interface ResolveOptions {
  /** Where relative paths start and `./bots` is looked for (default process.cwd()). */
  cwd?: string;
  /** Scan only this folder instead of `./bots` and the working directory. */
  botsRoot?: string;
  env?: NodeJS.ProcessEnv;
  /** No log line per bot (a listing prints the same facts). */
  quiet?: boolean;
  log?: Logger;
}

/** The bots found, and every folder that was looked in (for "no bots under …"). */
export interface FoundBots extends DiscoveryResult {
  searched: string[];
}

/**
 * Every bot a command may serve without being told which: the sub-folders of `./bots` holding a
 * config.json (a clone), then those of the working directory, and the working directory itself
 * when it is a bot folder (an installed package's project: `./my-bot`). A folder found twice
 * counts once; with `botsRoot` only that folder is scanned.
 */
export async function findBots(options: ResolveOptions = {}): Promise<FoundBots> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const roots =
    options.botsRoot !== undefined
      ? [resolve(cwd, options.botsRoot)]
      : [resolve(cwd, DEFAULT_BOTS_ROOT), cwd];
  const bots: BotDefinition[] = [];
  const failures: BotFailure[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    const found = await discoverBots(root, env, { cwd, quiet: true });
    for (const bot of found.bots) if (!seen.has(bot.dir) && seen.add(bot.dir)) bots.push(bot);
    for (const failure of found.failures) {
      if (!seen.has(failure.dir) && seen.add(failure.dir)) failures.push(failure);
    }
  }
  if (options.botsRoot === undefined && !seen.has(cwd)) {
    const here = await loadIfBotFolder(cwd, env, failures);
    if (here) bots.push(here);
  }
  bots.sort(byName);
  failures.sort(byName);
  if (!options.quiet) logFound(bots, failures, options.log ?? logger());
  return { root: roots[0]!, searched: roots, bots, failures };
}

/**
 * The bots named by `refs` (names or paths), in order, each once. Every ref that names no bot is
 * reported together, with the names a listing would show, so one run fixes every typo.
 */
export async function resolveBots(
  refs: readonly string[],
  options: ResolveOptions = {},
): Promise<BotDefinition[]> {
  const bots: BotDefinition[] = [];
  const unknown: string[] = [];
  for (const ref of refs) {
    try {
      const bot = await loadBot(ref, { ...options, quiet: options.quiet ?? false });
      if (!bots.some((b) => b.dir === bot.dir)) bots.push(bot);
    } catch (error) {
      if (!(error instanceof BotNotFoundError)) throw error;
      unknown.push(ref);
    }
  }
  if (unknown.length > 0) {
    const found = await findBots({ ...options, quiet: true });
    const available = found.bots.map((bot) => bot.name).join(", ") || "none";
    throw new BotNotFoundError(
      `unknown bot(s): ${unknown.join(", ")} (available: ${available}; a path to a bot folder works too)`,
    );
  }
  return bots;
}

async function loadIfBotFolder(
  dir: string,
  env: NodeJS.ProcessEnv,
  failures: BotFailure[],
): Promise<BotDefinition | undefined> {
  try {
    return await loadBot(dir, { cwd: dir, env, quiet: true });
  } catch (error) {
    if (error instanceof BotNotFoundError) return undefined;
    const name = dir.split(/[\\/]/).pop() ?? dir;
    failures.push({ name, dir, error: errorMessage(error) });
    return undefined;
  }
}

function byName(a: { name: string; dir: string }, b: { name: string; dir: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0;
}

function logFound(bots: readonly BotDefinition[], failures: readonly BotFailure[], log: Logger): void {
  for (const bot of bots) log.info({ bot: bot.name, dir: bot.dir }, describeBot(bot));
  for (const failure of failures) {
    log.warn(
      { bot: failure.name, dir: failure.dir, error: failure.error },
      `bot ${failure.name}: not loaded: ${failure.error.split("\n").join("; ")}`,
    );
  }
}
