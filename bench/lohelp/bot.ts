// The lohelp bot of one language, as the data's README lays it out: its pages under docs/ (built
// by ../shared/data/lohelp/build-bot.sh into a cache folder, or taken from BENCH_LOHELP_DIR), a
// one-line persona and a config.json with one collection `docs`, and the engine opened from
// that config by the path `second-look eval` and `search` take (loadBotFromDir, openBotBackend).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, mkdir, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { CollectionSchema } from "../../src/bots/config-schema.js";
import type { BotDefinition } from "../../src/bots/discovery.js";
import { loadBotFromDir } from "../../src/bots/discovery.js";
import { openBotBackend } from "../../src/connectors/open-bot-backend.js";
import { KnowledgeEngine } from "../../src/knowledge/engine.js";
import { dataDir, MissingData } from "../docbots/data.js";
import type { LohelpLanguage } from "./languages.js";

/** What the collection's `language` is set to: omitted (`none`), the language's BCP-47 tag, or `auto`. */
export type LanguageMode = "none" | "tag" | "auto";
const MODES: readonly LanguageMode[] = ["none", "tag", "auto"];

/** Whether this checkout's config schema knows a collection's `language` key. */
export const languageKeySupported = (): boolean => "language" in CollectionSchema.shape;

/** LOHELP_LANGUAGE, or by default the language's tag where the config knows the key and none where it does not. */
export function languageMode(value: string | undefined = process.env.LOHELP_LANGUAGE): LanguageMode {
  const wanted = value?.trim().toLowerCase();
  if (!wanted) return languageKeySupported() ? "tag" : "none";
  if (!(MODES as readonly string[]).includes(wanted)) {
    throw new Error(`LOHELP_LANGUAGE must be one of ${MODES.join(", ")}, got "${value}"`);
  }
  return wanted as LanguageMode;
}

/** The bot's config.json: the README's baseline config, plus `language` unless the mode is none. */
export function lohelpBotConfig(language: LohelpLanguage, mode: LanguageMode): Record<string, unknown> {
  const docs: Record<string, unknown> = { paths: ["docs/**/*.html"] };
  if (mode !== "none") docs.language = mode === "auto" ? "auto" : language.tag;
  return {
    description: `LibreOffice help, ${language.code} (lohelp benchmark)`,
    persona: "persona.md",
    knowledge: { backend: "embedded", collections: { docs } },
    correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
  };
}

const run = promisify(execFile);
const cacheRoot = () => resolve(process.env.BENCH_LOHELP_CACHE ?? join(tmpdir(), "second-look-bench-lohelp"));
const hasPages = (docs: string) => existsSync(join(docs, "text", "scalc", "guide", "line_fix.html"));

/**
 * The language's docs folder: BENCH_LOHELP_DIR/<code>/docs when that variable names a folder of
 * prebuilt ones, else built once into the cache folder by the data's own build-bot.sh.
 */
export async function lohelpDocsDir(language: LohelpLanguage): Promise<string> {
  const prebuilt = process.env.BENCH_LOHELP_DIR;
  if (prebuilt) {
    const docs = resolve(prebuilt, language.code, "docs");
    if (!hasPages(docs)) throw new MissingData(`${docs} holds no lohelp pages (BENCH_LOHELP_DIR)`);
    return docs;
  }
  const script = join(dataDir, "lohelp", "build-bot.sh");
  if (!existsSync(script)) throw new MissingData(`${script} not found (../shared/data absent)`);
  const target = join(cacheRoot(), "pages", language.code);
  if (!hasPages(join(target, "docs"))) {
    process.stderr.write(`building the lohelp ${language.code} pages in ${target} with ${script} …\n`);
    await run("bash", [script, language.code, target], { maxBuffer: 16 * 1024 * 1024 });
  }
  return join(target, "docs");
}

/**
 * The bot folder of one language and mode (its own index, so modes never share one): docs/ a
 * link to the pages, persona.md, and config.json written afresh on every run. `dir` puts it
 * elsewhere than the cache folder (a suite that must not share an index with this bench).
 */
export async function lohelpBotDir(
  language: LohelpLanguage,
  mode: LanguageMode,
  dir: string = join(cacheRoot(), "bots", `${language.code}-${mode}`),
): Promise<string> {
  const pages = await lohelpDocsDir(language);
  await mkdir(dir, { recursive: true });
  const link = join(dir, "docs");
  const current = await lstat(link).catch(() => undefined);
  if (!(current?.isSymbolicLink() && (await readlink(link)) === pages)) {
    // rm removes a link itself, never what it points to.
    await rm(link, { recursive: true, force: true });
    await symlink(pages, link, "dir");
  }
  await writeFile(
    join(dir, "persona.md"),
    "You answer questions from the documentation. Always search first.\n",
  );
  await writeFile(join(dir, "config.json"), `${JSON.stringify(lohelpBotConfig(language, mode), null, 2)}\n`);
  return dir;
}

/**
 * The bot's engine, built from its config.json by the product's own path (the one `second-look
 * eval` and `search` open a bot with): whatever the config's collection settings mean to this
 * checkout's engine, the bench measures.
 */
export async function openLohelpBot(
  dir: string,
): Promise<{ bot: BotDefinition; engine: KnowledgeEngine; close: () => Promise<void> }> {
  const bot = await loadBotFromDir(dir);
  const opened = await openBotBackend(bot);
  if (!(opened.backend instanceof KnowledgeEngine)) {
    await opened.close();
    throw new Error(`${dir}: the lohelp bot must open the embedded engine`);
  }
  return { bot, engine: opened.backend, close: opened.close };
}
