// The Debian Administrator's Handbook as a multilingual set (bench/data/handbook/README.md):
// 127 pages per language under the same file names, 83 judged questions in nine languages. The
// code is the data's (queries.<code>.jsonl, build-bot.sh's LANG), the tag what a collection's
// `language` is set to, and what the language-aware peers analyse with (npm `stopword` and
// `snowball-stemmers`; the Latin words of the Japanese pages are English).
import { deu, eng, fra, ita, nob, por, rus, spa } from "stopword";
import { repo } from "../docbots/data.js";
import type { MultilingualSet, SetLanguage } from "../multilingual/set.js";

export const HANDBOOK_LANGUAGES: readonly SetLanguage[] = [
  { code: "en-us", tag: "en-US", snowball: "english", stopwords: eng },
  { code: "nb-no", tag: "nb-NO", snowball: "norwegian", stopwords: nob },
  { code: "de-de", tag: "de-DE", snowball: "german", stopwords: deu },
  { code: "fr-fr", tag: "fr-FR", snowball: "french", stopwords: fra },
  { code: "es-es", tag: "es-ES", snowball: "spanish", stopwords: spa },
  { code: "pt-br", tag: "pt-BR", snowball: "portuguese", stopwords: por },
  { code: "it-it", tag: "it-IT", snowball: "italian", stopwords: ita },
  { code: "ru-ru", tag: "ru-RU", snowball: "russian", stopwords: rus },
  { code: "ja-jp", tag: "ja-JP", snowball: "english", stopwords: eng, cjk: "ja" },
];

/** No committed English-only run: the suite measures the English-only engine in the same run. */
export const HANDBOOK: MultilingualSet = {
  name: "debian-handbook",
  title: "the Debian Administrator's Handbook",
  envPrefix: "HANDBOOK",
  dataDir: `${repo}/bench/data/handbook`,
  probePage: "sect.apt-get.html",
  languages: HANDBOOK_LANGUAGES,
};
