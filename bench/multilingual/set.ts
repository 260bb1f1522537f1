// A multilingual documentation set: the same pages in several languages under the same paths,
// the same judged questions in each language (queries.<code>.jsonl), and a build-bot.sh that
// builds one language's docs/ folder. lohelp (LibreOffice's help) and the Debian Administrator's
// Handbook are two. This module builds a set's bot of one language as its data README lays it
// out — its pages under docs/ (built by the set's build-bot.sh into a cache folder, or taken from
// a folder of prebuilt ones), a one-line persona and a config.json with one collection `docs` —
// and opens the engine from that config by the path `second-look eval` and `search` take
// (loadBotFromDir, openBotBackend).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { link, lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { CollectionSchema } from "../../src/bots/config-schema.js";
import type { BotDefinition } from "../../src/bots/discovery.js";
import { loadBotFromDir } from "../../src/bots/discovery.js";
import { openBotBackend } from "../../src/connectors/open-bot-backend.js";
import { MissingData } from "../docbots/data.js";
import type { PeerLanguage } from "../peers/language-analysis.js";

export interface SetLanguage extends PeerLanguage {
  /** The data's code: queries.<code>.jsonl, build-bot.sh's LANG. */
  code: string;
  /** The BCP-47 tag a collection in this language declares. */
  tag: string;
}

export interface MultilingualSet {
  /** The suite's and the data folder's name ("lohelp"); names cache folders and messages. */
  name: string;
  /** What the pages are, for a bot's description and result titles ("LibreOffice help"). */
  title: string;
  /** Prefix of the set's environment variables: <P>_LANGS, <P>_LANGUAGE, BENCH_<P>_DIR, BENCH_<P>_CACHE. */
  envPrefix: string;
  /** The folder holding queries.<code>.jsonl and build-bot.sh. */
  dataDir: string;
  /** A page every built docs/ folder holds (relative to docs/), to tell a built folder from an empty one. */
  probePage: string;
  /** The set's languages, English first. */
  languages: readonly SetLanguage[];
  /**
   * A committed result file of this suite measured on the English-only engine (before the engine
   * knew languages), whose default hit@5 per language the acceptance check compares with. Without
   * one, the suite measures the English-only engine in the same run (the collection's `language`
   * set to "en").
   */
  englishOnlyFile?: URL;
}

/**
 * What the collection's `language` is set to: omitted (`none`), the language's BCP-47 tag,
 * `auto`, or `en` (English analysis whatever the pages' language: the English-only engine).
 */
export type LanguageMode = "none" | "tag" | "auto" | "en";
const MODES: readonly LanguageMode[] = ["none", "tag", "auto", "en"];

/** Whether this checkout's config schema knows a collection's `language` key. */
export const languageKeySupported = (): boolean => "language" in CollectionSchema.shape;

const env = (set: MultilingualSet, key: string) => process.env[`${set.envPrefix}_${key}`];

/** <P>_LANGUAGE, or by default the language's tag where the config knows the key and none where it does not. */
export function languageMode(
  set: MultilingualSet,
  value: string | undefined = env(set, "LANGUAGE"),
): LanguageMode {
  const wanted = value?.trim().toLowerCase();
  if (!wanted) return languageKeySupported() ? "tag" : "none";
  if (!(MODES as readonly string[]).includes(wanted)) {
    throw new Error(`${set.envPrefix}_LANGUAGE must be one of ${MODES.join(", ")}, got "${value}"`);
  }
  return wanted as LanguageMode;
}

/** The languages <P>_LANGS names (comma-separated codes), or all of them; an unknown code is an error. */
export function selectLanguages(
  set: MultilingualSet,
  list: string | undefined = env(set, "LANGS"),
): SetLanguage[] {
  if (!list?.trim()) return [...set.languages];
  const codes = list
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  const unknown = codes.filter((c) => !set.languages.some((l) => l.code === c));
  if (unknown.length) {
    throw new Error(
      `${set.envPrefix}_LANGS: unknown language(s) ${unknown.join(", ")}; use ${set.languages.map((l) => l.code).join(", ")}`,
    );
  }
  return set.languages.filter((l) => codes.includes(l.code));
}

export const questionsFile = (set: MultilingualSet, code: string): string =>
  join(set.dataDir, `queries.${code}.jsonl`);

/** The bot's config.json: the data README's baseline config, plus `language` unless the mode is none. */
export function setBotConfig(
  set: MultilingualSet,
  language: SetLanguage,
  mode: LanguageMode,
): Record<string, unknown> {
  const docs: Record<string, unknown> = { paths: ["docs/**/*.html"] };
  if (mode !== "none") docs.language = mode === "tag" ? language.tag : mode;
  return {
    description: `${set.title}, ${language.code} (${set.name} benchmark)`,
    persona: "persona.md",
    knowledge: { backend: "embedded", collections: { docs } },
    correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
  };
}

const run = promisify(execFile);
const cacheRoot = (set: MultilingualSet) =>
  resolve(process.env[`BENCH_${set.envPrefix}_CACHE`] ?? join(tmpdir(), `second-look-bench-${set.name}`));
const hasPages = (set: MultilingualSet, docs: string) => existsSync(join(docs, set.probePage));

/**
 * The language's docs folder: BENCH_<P>_DIR/<code>/docs when that variable names a folder of
 * prebuilt ones, else built once into the cache folder by the data's own build-bot.sh.
 */
export async function setDocsDir(set: MultilingualSet, language: SetLanguage): Promise<string> {
  const variable = `BENCH_${set.envPrefix}_DIR`;
  const prebuilt = process.env[variable];
  if (prebuilt) {
    const docs = resolve(prebuilt, language.code, "docs");
    if (!hasPages(set, docs)) throw new MissingData(`${docs} holds no ${set.name} pages (${variable})`);
    return docs;
  }
  const script = join(set.dataDir, "build-bot.sh");
  if (!existsSync(script)) throw new MissingData(`${script} not found`);
  const target = join(cacheRoot(set), "pages", language.code);
  if (!hasPages(set, join(target, "docs"))) {
    process.stderr.write(`building the ${set.name} ${language.code} pages in ${target} with ${script} …\n`);
    await run("bash", [script, language.code, target], { maxBuffer: 16 * 1024 * 1024 });
  }
  return join(target, "docs");
}

/**
 * The bot folder of one language and mode (its own index, so modes never share one): docs/ a
 * link to the pages, persona.md, and config.json written afresh on every run. `dir` puts it
 * elsewhere than the cache folder (a suite that must not share an index with this bench).
 */
export async function setBotDir(
  set: MultilingualSet,
  language: SetLanguage,
  mode: LanguageMode,
  dir: string = join(cacheRoot(set), "bots", `${language.code}-${mode}`),
): Promise<string> {
  const pages = await setDocsDir(set, language);
  await mkdir(dir, { recursive: true });
  const docs = join(dir, "docs");
  const marker = join(dir, ".docs-from");
  const from = await readFile(marker, "utf8").catch(() => undefined);
  if (from !== pages || (await lstat(docs).catch(() => undefined))?.isSymbolicLink()) {
    // A bot reads only files inside its folder (a link out of it is refused), so the pages are
    // hard-linked in: no copy of their bytes, and every path resolves inside the bot folder.
    await rm(docs, { recursive: true, force: true });
    await linkTree(pages, docs);
    await writeFile(marker, pages);
  }
  await writeFile(
    join(dir, "persona.md"),
    "You answer questions from the documentation. Always search first.\n",
  );
  await writeFile(
    join(dir, "config.json"),
    `${JSON.stringify(setBotConfig(set, language, mode), null, 2)}\n`,
  );
  return dir;
}

/**
 * The bot's engine, built from its config.json by the product's own path (the one `second-look
 * eval` and `search` open a bot with): whatever the config's collection settings mean to this
 * checkout's engine, the bench measures.
 */
export async function openSetBot(
  dir: string,
): Promise<{ bot: BotDefinition; engine: KnowledgeEngine; close: () => Promise<void> }> {
  const bot = await loadBotFromDir(dir);
  const opened = await openBotBackend(bot);
  if (!(opened.backend instanceof KnowledgeEngine)) {
    await opened.close();
    throw new Error(`${dir}: the bench's bot must open the embedded engine`);
  }
  return { bot, engine: opened.backend, close: opened.close };
}

/** `to` as a tree of hard links to the files under `from` (same file system). */
export async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile()) await link(source, target);
  }
}
