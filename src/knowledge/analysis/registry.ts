import { editDistance } from "../../edit-distance.js";
import { type Analyzer, ComposedAnalyzer } from "./analyzer.js";
import { analyzerDefinition, LANGUAGE_PROFILES, type LanguageProfile } from "./languages.js";
import { ownAnalyzer, ownAnalyzersGeneration } from "./own-analyzers.js";
import type { AnalyzerDefinition } from "./text-analyzer.js";

/**
 * The named analyzers (as Tantivy's TokenizerManager names its tokenizers): one per supported
 * language, registered under its tag, and any a program registers (`registerAnalyzer`). A
 * collection names its language or analyzer, and documents and queries of that collection are
 * analysed by the analyzer registered under that name. Analyzers are built on first use and shared.
 */

/** What `knowledge.collections.<name>.language` takes besides a language tag. */
export const AUTO_LANGUAGE = "auto";
/**
 * A collection that names no language is analysed as English, as every collection was before
 * languages existed: an index built before keeps its meaning. "auto" is one word away.
 */
export const DEFAULT_LANGUAGE = "en";

const byTag = new Map(LANGUAGE_PROFILES.map((p) => [p.tag, p]));
/** The supported languages' analyzers, registered under their tags (a program's own come first: own-analyzers.ts). */
const definitions = new Map<string, AnalyzerDefinition>(
  LANGUAGE_PROFILES.map((p) => [p.tag, analyzerDefinition(p)]),
);
const built = new Map<string, Analyzer>();
/** The program's registrations the built analyzers were built under. */
let builtGeneration = ownAnalyzersGeneration();

const definitionOf = (name: string) => ownAnalyzer(name) ?? definitions.get(name);

/** The name an analyzer is registered under for a collection's setting: the registered name itself, else the language's tag. */
export function analyzerNameOf(setting: string): string | undefined {
  if (ownAnalyzer(setting)) return setting.trim().toLowerCase();
  return languageOf(setting)?.tag;
}

/**
 * The definition registered under a name or for a supported language tag ("de-AT" → German's), to
 * start an analyzer of one's own from; undefined for anything else.
 */
export function analyzerDefinitionOf(name: string): AnalyzerDefinition | undefined {
  const key = analyzerNameOf(name);
  return key === undefined ? undefined : definitionOf(key);
}

/** The id of the analyzer registered under a name or language tag, without building it. */
export function analyzerIdOf(name: string): string | undefined {
  const key = analyzerNameOf(name);
  return key === undefined ? undefined : definitionOf(key)?.id;
}

/** The language a registered analyzer's text is in (a tag), for names that are not language tags. */
export function languageOfAnalyzer(name: string): string | undefined {
  const key = analyzerNameOf(name);
  return key === undefined ? undefined : definitionOf(key)?.language;
}

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

/**
 * The analyzer registered under a name or for a supported language tag; throws on anything else
 * (config validates first).
 */
export function analyzerFor(tag: string): Analyzer {
  if (builtGeneration !== ownAnalyzersGeneration()) {
    built.clear();
    builtGeneration = ownAnalyzersGeneration();
  }
  // Looked up once per document while indexing: the tag as given is the key, parsed only once.
  const known = built.get(tag);
  if (known) return known;
  const name = analyzerNameOf(tag);
  const definition = name === undefined ? undefined : definitionOf(name);
  if (name === undefined || !definition) {
    throw new RangeError(`unsupported language "${tag}" (supported: ${SUPPORTED_LANGUAGES.join(", ")})`);
  }
  let analyzer = built.get(name);
  if (!analyzer) {
    analyzer = new ComposedAnalyzer(definition);
    built.set(name, analyzer);
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
