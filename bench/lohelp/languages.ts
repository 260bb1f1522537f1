// The eleven languages of the lohelp benchmark (../shared/data/lohelp/README.md): the code its
// files and build-bot.sh use, the BCP-47 tag a collection's `language` is set to, and what the
// language-aware peers analyse with (the README's "Peers": npm `stopword` and `snowball-stemmers`;
// the Latin words of the ja and zh-cn pages are English).
import { dan, deu, eng, fin, fra, nld, rus, spa, swe } from "stopword";
import type { PeerLanguage } from "../peers/language-analysis.js";

export interface LohelpLanguage extends PeerLanguage {
  /** The data's code: queries.<code>.jsonl, build-bot.sh's LANG. */
  code: string;
  /** The BCP-47 tag a collection in this language declares. */
  tag: string;
}

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

/** The languages LOHELP_LANGS names (comma-separated codes), or all eleven; an unknown code is an error. */
export function selectedLanguages(list: string | undefined = process.env.LOHELP_LANGS): LohelpLanguage[] {
  if (!list?.trim()) return [...LOHELP_LANGUAGES];
  const codes = list
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  const unknown = codes.filter((c) => !LOHELP_LANGUAGES.some((l) => l.code === c));
  if (unknown.length) {
    throw new Error(
      `LOHELP_LANGS: unknown language(s) ${unknown.join(", ")}; use ${LOHELP_LANGUAGES.map((l) => l.code).join(", ")}`,
    );
  }
  return LOHELP_LANGUAGES.filter((l) => codes.includes(l.code));
}
