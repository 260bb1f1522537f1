import { editDistance } from "../../edit-distance.js";
import { type Analyzer, LanguageAnalyzer } from "./analyzer.js";
import { LANGUAGE_PROFILES, type LanguageProfile } from "./languages.js";

/**
 * The named analyzers, one per supported language (as Tantivy's TokenizerManager names its
 * tokenizers): a collection names its language, and documents and queries of that collection
 * are analysed by the analyzer registered for it. Analyzers are built on first use and shared.
 */

/** What `knowledge.collections.<name>.language` takes besides a language tag. */
export const AUTO_LANGUAGE = "auto";
/**
 * A collection that names no language is analysed as English, as every collection was before
 * languages existed: an index built before keeps its meaning. "auto" is one word away.
 */
export const DEFAULT_LANGUAGE = "en";

const byTag = new Map(LANGUAGE_PROFILES.map((p) => [p.tag, p]));
const built = new Map<string, Analyzer>();

/** Tags people write for a supported language that are not its BCP-47 subtag. */
const ALIASES: Readonly<Record<string, string>> = {
  no: "nb",
  jp: "ja",
  dk: "da",
  se: "sv",
  cn: "zh",
  cz: "cs",
  kr: "ko",
  ua: "uk",
  gr: "el",
};

export const SUPPORTED_LANGUAGES: readonly string[] = LANGUAGE_PROFILES.map((p) => p.tag);

/**
 * The supported language a BCP-47 tag names ("nb-NO" → nb, "zh-Hans-CN" → zh, "no" → nb), or
 * undefined. Region and script subtags do not change the analysis.
 */
export function languageOf(tag: string): LanguageProfile | undefined {
  let primary: string;
  try {
    primary = new Intl.Locale(tag.trim()).language.toLowerCase();
  } catch {
    return undefined;
  }
  return byTag.get(ALIASES[primary] ?? primary);
}

/** The analyzer for a supported language tag; throws on an unsupported one (config validates first). */
export function analyzerFor(tag: string): Analyzer {
  // Looked up once per document while indexing: the tag as given is the key, parsed only once.
  const known = built.get(tag);
  if (known) return known;
  const profile = languageOf(tag);
  if (!profile) {
    throw new RangeError(`unsupported language "${tag}" (supported: ${SUPPORTED_LANGUAGES.join(", ")})`);
  }
  let analyzer = built.get(profile.tag);
  if (!analyzer) {
    analyzer = new LanguageAnalyzer(profile);
    built.set(profile.tag, analyzer);
  }
  // Bounded: tags come from config and stored indexes, a handful per process.
  if (built.size < 256) built.set(tag, analyzer);
  return analyzer;
}

/** The analyzer a collection with no language setting uses (English). */
export function defaultAnalyzer(): Analyzer {
  return analyzerFor(DEFAULT_LANGUAGE);
}

/**
 * The supported tag closest to an unsupported one, for the config error: an alias or a language
 * name ("norwegian", "Deutsch" by its English name only), else the tag at the smallest edit
 * distance.
 */
export function closestLanguage(value: string): string {
  const wanted = value.trim().toLowerCase();
  const primary = wanted.split(/[-_]/)[0] ?? wanted;
  if (ALIASES[primary] && byTag.has(ALIASES[primary]!)) return ALIASES[primary]!;
  for (const p of LANGUAGE_PROFILES) {
    const name = p.name.toLowerCase();
    if (name === wanted || name.split(" ")[0] === wanted) return p.tag;
  }
  let best = DEFAULT_LANGUAGE;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const p of LANGUAGE_PROFILES) {
    for (const candidate of [p.tag, p.name.toLowerCase()]) {
      const d = editDistance(primary, candidate);
      if (d < bestDistance) {
        bestDistance = d;
        best = p.tag;
      }
    }
  }
  return best;
}
