import { basename, resolve } from "node:path";
import { findBots, resolveBot } from "../bots/bot-resolver.js";
import { type BotFailure, botCollections, type DiscoveryResult } from "../bots/discovery.js";
import { collectionLanguages } from "../connectors/collection-languages.js";
import { type CorrectiveSource, describeCorrective } from "../corrective/corrective-config.js";
import { errorMessage } from "../errors.js";
import { collectionWithLanguage } from "../knowledge-tool/collection-languages.js";
import type { CollectionLanguage } from "../types.js";

/** One element of `second-look bots --json` (stable: fields are only ever added). */
export interface BotListingEntry {
  name: string;
  dir: string;
  backend: "embedded" | "huginn" | "postgres" | null;
  collections: string[];
  /** Collection → its documents' language as the config names it (absent: unknown, e.g. Huginn). */
  languages: Record<string, CollectionLanguage>;
  model: string | null;
  provider: "openai" | "anthropic" | "azure" | null;
  correctiveRetrieval: {
    enabled: boolean;
    grader: "signal" | "haiku" | "auto";
    retryBudget: 1 | 2;
    source: { enabled: CorrectiveSource; retryBudget: CorrectiveSource; grader: CorrectiveSource };
  } | null;
  /** Why the bot could not be loaded (every other field then empty or null), else null. */
  error: string | null;
}

/** The listing in `--json` form: loaded and failed bots together, sorted by name. */
export function listingEntries(result: DiscoveryResult): BotListingEntry[] {
  const loaded: BotListingEntry[] = result.bots.map((bot) => ({
    name: bot.name,
    dir: bot.dir,
    backend: bot.config.knowledge.backend,
    collections: botCollections(bot.config),
    languages: collectionLanguages(bot.config),
    model: bot.config.model ?? null,
    provider: bot.config.provider?.type ?? null,
    correctiveRetrieval: {
      enabled: bot.corrective.enabled,
      grader: bot.corrective.grader,
      retryBudget: bot.corrective.retryBudget,
      source: {
        enabled: bot.corrective.source.enabled,
        retryBudget: bot.corrective.source.retryBudget,
        grader: bot.corrective.source.grader,
      },
    },
    error: null,
  }));
  const failed: BotListingEntry[] = result.failures.map((failure) => ({
    name: failure.name,
    dir: failure.dir,
    backend: null,
    collections: [],
    languages: {},
    model: null,
    provider: null,
    correctiveRetrieval: null,
    error: failure.error,
  }));
  return [...loaded, ...failed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function humanRows(result: DiscoveryResult): string[][] {
  const byName = new Map(result.bots.map((bot) => [bot.name, bot]));
  return listingEntries(result).map((entry) => {
    const bot = byName.get(entry.name);
    if (bot === undefined || entry.error !== null) {
      return [entry.name, "error", (entry.error ?? "").split("\n").join("; ")];
    }
    const model =
      entry.model === null ? "-" : entry.provider ? `${entry.model} (${entry.provider})` : entry.model;
    return [
      entry.name,
      entry.backend ?? "-",
      entry.collections.map((c) => collectionWithLanguage(c, entry.languages[c])).join(",") || "-",
      model,
      describeCorrective(bot.corrective),
    ];
  });
}

/** Pad every column but the last to the widest cell, two spaces apart. */
function align(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell)).join("  "),
  );
}

/**
 * `second-look bots [bot…] [--json]`: the bots found from the working directory (./bots and its
 * own sub-folders, or `botsRoot` alone), or the ones named (names or folder paths), with their
 * resolved state. Exit 0 when at least one bot loaded or there are none, 1 when every bot failed
 * or the folder is unusable.
 */
export async function runBots(
  opts: { json: boolean; botsRoot?: string; refs?: readonly string[] },
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env?: NodeJS.ProcessEnv },
): Promise<number> {
  const env = io.env ?? process.env;
  let result: DiscoveryResult & { searched: string[] };
  try {
    // Quiet: the listing states the same facts the discovery log lines would.
    result =
      opts.refs && opts.refs.length > 0
        ? await namedBots(opts.refs, env)
        : await findBots({
            env,
            quiet: true,
            ...(opts.botsRoot !== undefined ? { botsRoot: opts.botsRoot } : {}),
          });
  } catch (error) {
    io.stderr.write(`second-look bots: ${errorMessage(error)}\n`);
    return 1;
  }
  if (opts.json) {
    io.stdout.write(`${JSON.stringify(listingEntries(result), null, 2)}\n`);
  } else if (result.bots.length === 0 && result.failures.length === 0) {
    io.stdout.write(
      `no bots under ${result.searched.join(" or ")} (a bot is a folder with a config.json; name its path to list it)\n`,
    );
  } else {
    io.stdout.write(`${align(humanRows(result)).join("\n")}\n`);
  }
  return result.bots.length === 0 && result.failures.length > 0 ? 1 : 0;
}

/** Each named bot, or why it could not be loaded (a listing shows both). */
async function namedBots(
  refs: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<DiscoveryResult & { searched: string[] }> {
  const result: DiscoveryResult & { searched: string[] } = {
    root: process.cwd(),
    searched: [],
    bots: [],
    failures: [],
  };
  for (const ref of refs) {
    try {
      result.bots.push(await resolveBot(ref, { env, quiet: true }));
    } catch (error) {
      const failure: BotFailure = { name: basename(ref), dir: resolve(ref), error: errorMessage(error) };
      result.failures.push(failure);
    }
  }
  return result;
}
