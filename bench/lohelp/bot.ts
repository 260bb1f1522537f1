// The lohelp bot of one language (bench/multilingual/set.ts builds it for every multilingual set):
// its pages under docs/ (built by ../shared/data/lohelp/build-bot.sh into a cache folder, or taken
// from BENCH_LOHELP_DIR), a one-line persona and a config.json with one collection `docs`, opened
// by the path `second-look eval` and `search` take.
import {
  type LanguageMode,
  openSetBot,
  setBotConfig,
  setBotDir,
  setDocsDir,
  languageMode as setLanguageMode,
} from "../multilingual/set.js";
import { LOHELP, type LohelpLanguage } from "./languages.js";

export { type LanguageMode, languageKeySupported } from "../multilingual/set.js";

/** LOHELP_LANGUAGE, or by default the language's tag where the config knows the key and none where it does not. */
export const languageMode = (value: string | undefined = process.env.LOHELP_LANGUAGE): LanguageMode =>
  setLanguageMode(LOHELP, value);

/** The bot's config.json: the README's baseline config, plus `language` unless the mode is none. */
export const lohelpBotConfig = (language: LohelpLanguage, mode: LanguageMode): Record<string, unknown> =>
  setBotConfig(LOHELP, language, mode);

/** The language's docs folder: BENCH_LOHELP_DIR/<code>/docs, else built once into the cache folder. */
export const lohelpDocsDir = (language: LohelpLanguage): Promise<string> => setDocsDir(LOHELP, language);

/** The bot folder of one language and mode; `dir` puts it elsewhere than the cache folder. */
export const lohelpBotDir = (language: LohelpLanguage, mode: LanguageMode, dir?: string): Promise<string> =>
  setBotDir(LOHELP, language, mode, dir);

/** The bot's engine, built from its config.json by the product's own path. */
export const openLohelpBot = openSetBot;
