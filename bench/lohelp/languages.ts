// The eleven languages of the lohelp benchmark (../shared/data/lohelp/README.md): the code its
// files and build-bot.sh use, the BCP-47 tag a collection's `language` is set to, and what the
// language-aware peers analyse with (the README's "Peers": npm `stopword` and `snowball-stemmers`;
// the Latin words of the ja and zh-cn pages are English).
import { dan, deu, eng, fin, fra, nld, rus, spa, swe } from "stopword";
import { dataDir } from "../docbots/data.js";
import { type MultilingualSet, type SetLanguage, selectLanguages } from "../multilingual/set.js";

export type LohelpLanguage = SetLanguage;

export const LOHELP_LANGUAGES: readonly LohelpLanguage[] = [
  { code: "en-us", tag: "en-US", snowball: "english", stopwords: eng },
  { code: "de", tag: "de", snowball: "german", stopwords: deu },
  { code: "fr", tag: "fr", snowball: "french", stopwords: fra },
  { code: "es", tag: "es", snowball: "spanish", stopwords: spa },
  { code: "sv", tag: "sv", snowball: "swedish", stopwords: swe },
  { code: "da", tag: "da", snowball: "danish", stopwords: dan },
  { code: "nl", tag: "nl", snowball: "dutch", stopwords: nld },
  { code: "fi", tag: "fi", snowball: "finnish", stopwords: fin },
  { code: "ru", tag: "ru", snowball: "russian", stopwords: rus },
  { code: "ja", tag: "ja", snowball: "english", stopwords: eng, cjk: "ja" },
  { code: "zh-cn", tag: "zh-CN", snowball: "english", stopwords: eng, cjk: "zh" },
];

/** lohelp as a multilingual set: LibreOffice's help, 1,672 pages per language, in ../shared/data/lohelp. */
export const LOHELP: MultilingualSet = {
  name: "lohelp",
  title: "LibreOffice help",
  envPrefix: "LOHELP",
  dataDir: `${dataDir}/lohelp`,
  probePage: "text/scalc/guide/line_fix.html",
  languages: LOHELP_LANGUAGES,
  englishOnlyFile: new URL("../results/lohelp-before.json", import.meta.url),
};

/** The languages LOHELP_LANGS names (comma-separated codes), or all eleven; an unknown code is an error. */
export const selectedLanguages = (list: string | undefined = process.env.LOHELP_LANGS): LohelpLanguage[] =>
  selectLanguages(LOHELP, list);
