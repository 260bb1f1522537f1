import { basename, resolve } from "node:path";
import { indexDirectory } from "../backends/embedded/open-embedded.js";
import { findBots, resolveBot } from "../bots/bot-resolver.js";
import { type BotFailure, botCollections, type DiscoveryResult } from "../bots/discovery.js";
import { collectionLanguages } from "../connectors/collection-languages.js";
import { type CorrectiveSource, describeCorrective } from "../corrective/corrective-config.js";
import { errorMessage } from "../errors.js";
import { DEFAULT_LANGUAGE, languageOf } from "../knowledge/analysis/registry.js";
import { type DetectedLanguage, detectedLanguageLine } from "../knowledge/analysis/unset-language.js";
import { IndexStore } from "../knowledge/index/index-store.js";
import { collectionWithLanguage } from "../knowledge-tool/language-names.js";
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
export function listingEntries(
  result: DiscoveryResult,
  detected: ReadonlyMap<string, ReadonlyMap<string, DetectedLanguage>> = new Map(),
): BotListingEntry[] {
  const loaded: BotListingEntry[] = result.bots.map((bot) => ({
    name: bot.name,
    dir: bot.dir,
    backend: bot.config.knowledge.backend,
    collections: botCollections(bot.config),
    languages: withDetected(collectionLanguages(bot.config), detected.get(bot.name)),
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

/** A collection with no `language` is named by the language its index was detected to be in. */
function withDetected(
  languages: Record<string, CollectionLanguage>,
  detected: ReadonlyMap<string, DetectedLanguage> | undefined,
): Record<string, CollectionLanguage> {
  for (const [name, language] of detected ?? []) {
    const profile = languageOf(language.tag);
    if (profile) languages[name] = { tags: [profile.tag], name: `${profile.name}, detected` };
  }
  return languages;
}

function humanRows(
  result: DiscoveryResult,
  detected: ReadonlyMap<string, ReadonlyMap<string, DetectedLanguage>>,
): string[][] {
  const byName = new Map(result.bots.map((bot) => [bot.name, bot]));
  return listingEntries(result, detected).map((entry) => {
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
  const detected = await detectedLanguages(result, env);
  if (opts.json) {
    const entries = listingEntries(result, detected).map((e) =>
      detected.has(e.name) ? { ...e, detectedLanguages: Object.fromEntries(detected.get(e.name)!) } : e,
    );
    io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  } else if (result.bots.length === 0 && result.failures.length === 0) {
    io.stdout.write(
      `no bots under ${result.searched.join(" or ")} (a bot is a folder with a config.json; name its path to list it)\n`,
    );
  } else {
    io.stdout.write(`${align(humanRows(result, detected)).join("\n")}\n`);
    for (const [bot, collections] of detected) {
      for (const [name, language] of collections) {
        io.stdout.write(`${bot} ${name}: ${detectedLanguageLine(name, language)}\n`);
      }
    }
  }
  return result.bots.length === 0 && result.failures.length > 0 ? 1 : 0;
}

/**
 * Per embedded bot, its collections with no `language` whose index recorded another language
 * than English as the one it was detected and analysed in (the index's manifest: no file is read). A PostgreSQL bot's record is
 * in its database, which listing does not connect to (`second-look index` prints it).
 */
async function detectedLanguages(
  result: DiscoveryResult,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, Map<string, DetectedLanguage>>> {
  const out = new Map<string, Map<string, DetectedLanguage>>();
  for (const bot of result.bots) {
    if (bot.config.knowledge.backend !== "embedded") continue;
    const store = new IndexStore(indexDirectory(bot.dir, env));
    for (const [name, collection] of Object.entries(bot.config.knowledge.collections)) {
      if (collection.language !== undefined) continue;
      const found = await store.detection(name);
      // English is what a collection with no setting always was: only another language is news.
      if (!found || found.tag === DEFAULT_LANGUAGE) continue;
      const entry = out.get(bot.name) ?? new Map<string, DetectedLanguage>();
      entry.set(name, { tag: found.tag, documents: found.documents, sampled: found.sampled });
      out.set(bot.name, entry);
    }
  }
  return out;
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
