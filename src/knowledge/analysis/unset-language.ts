// A collection without a `language` is analysed as English, as it always was (so no English bot
// re-indexes on upgrade). A collection in another language then loses most of its matches
// (stems, stopwords, compounds all wrong) without a word said. So when such a collection's files
// are read, a sample of them is run through the detector, and documents that clearly read as
// another language get one warning naming the key to set and the value to set it to.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { DETECTION_SAMPLE_CHARS, type LanguageDetector, languageDetector } from "./detect.js";
import { AUTO_LANGUAGE, DEFAULT_LANGUAGE, languageOf } from "./registry.js";

/** Documents sampled per index run: enough for a clear majority, a bounded cost (~40 detections). */
export const UNSET_LANGUAGE_SAMPLE_DOCUMENTS = 40;

/**
 * The share of the sampled documents another language must hold for the warning: a third of a
 * collection analysed in the wrong language is worth a line. English documentation sampled whole
 * reads as English throughout (pydocs 40 of 40, lohelp en-us 40 of 40), so misread documents
 * come nowhere near it.
 */
export const UNSET_LANGUAGE_MIN_SHARE = 1 / 3;

/** An English share of the sample from which the collection counts as mixed ("auto" offered too). */
export const MIXED_ENGLISH_MIN_SHARE = 0.2;

/** What a collection's documents read as, when that is not English. */
export interface UnsetLanguageFinding {
  /** The supported tag most sampled documents read as. */
  tag: string;
  name: string;
  /** Sampled documents read as `tag`. */
  documents: number;
  /** Sampled documents read as English. */
  english: number;
  /** Documents sampled (with letters in them). */
  sampled: number;
}

/**
 * Where a document stands in the sample: the documents whose paths rank lowest are kept. A hash,
 * so the sample is spread over the whole collection and does not depend on the order files are
 * read in.
 */
export function sampleRank(path: string): number {
  return createHash("sha256").update(path).digest().readUInt32BE(0);
}

/**
 * A sample of the documents a run reads, as text for the detector (title, then sections, cut to
 * what it reads). The documents kept are those whose paths hash lowest: spread over the whole
 * collection rather than its first folder (files are read in path order, and a folder is often
 * one translation state), and the same whatever order the parser threads finish in.
 */
export class LanguageSample {
  private readonly kept: { rank: number; text: string }[] = [];

  offer(path: string, document: { title: string; sections: readonly { content: string }[] }): void {
    const rank = sampleRank(path);
    if (this.kept.length >= UNSET_LANGUAGE_SAMPLE_DOCUMENTS && rank >= this.kept.at(-1)!.rank) return;
    let text = document.title;
    for (const section of document.sections) {
      if (text.length >= DETECTION_SAMPLE_CHARS) break;
      text += `\n${section.content}`;
    }
    if (!/\p{L}/u.test(text)) return;
    this.kept.push({ rank, text: text.slice(0, DETECTION_SAMPLE_CHARS) });
    this.kept.sort((a, b) => a.rank - b.rank);
    if (this.kept.length > UNSET_LANGUAGE_SAMPLE_DOCUMENTS) this.kept.pop();
  }

  get texts(): string[] {
    return this.kept.map((k) => k.text);
  }
}

/**
 * The language the sampled texts read as, when at least UNSET_LANGUAGE_MIN_SHARE of them are
 * reliably one supported language other than English (the largest such); otherwise undefined.
 */
export function findUnsetLanguage(
  texts: readonly string[],
  detect: LanguageDetector,
): UnsetLanguageFinding | undefined {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const found = detect(text);
    if (found?.reliable) counts.set(found.tag, (counts.get(found.tag) ?? 0) + 1);
  }
  const english = counts.get(DEFAULT_LANGUAGE) ?? 0;
  counts.delete(DEFAULT_LANGUAGE);
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (!top || top[1] < texts.length * UNSET_LANGUAGE_MIN_SHARE) return undefined;
  const profile = languageOf(top[0]);
  if (!profile) return undefined;
  return { tag: profile.tag, name: profile.name, documents: top[1], english, sampled: texts.length };
}

/** Whether English also holds a clear share of the sample (MIXED_ENGLISH_MIN_SHARE): "auto" fits. */
function isMixed(f: UnsetLanguageFinding): boolean {
  return f.english >= f.sampled * MIXED_ENGLISH_MIN_SHARE;
}

/** The warning: what was found, what it costs, and the key and value that fix it. */
export function unsetLanguageMessage(
  collection: string,
  configPath: string,
  f: UnsetLanguageFinding,
): string {
  const key = `knowledge.collections.${collection}.language`;
  const mixed = isMixed(f);
  const read = `${f.documents} of ${f.sampled} sampled documents read as ${f.name}${mixed ? ` and ${f.english} as English` : ""}`;
  // The tag first: asked in the translation's language, LibreOffice's partly translated help
  // finds more with its tag than with "auto" (`LOHELP_LANGUAGE=auto npm run bench -- lohelp`).
  const fix = mixed
    ? `set ${key} to "${f.tag}", or to "auto" if people also ask in English (each document is then analysed in its own language)`
    : `set ${key} to "${f.tag}"`;
  return `collection ${collection} has no "language" in ${configPath}, so it is analysed as English, but ${read}: ${fix}; the collection is re-indexed once`;
}

/** The file the warning names: the bot's config.json (src/bots/discovery.ts, CONFIG_FILE). */
function configPathOf(botDir: string): string {
  return join(botDir, "config.json");
}

/**
 * The warning for a collection read without a `language` setting, when its sampled documents
 * read as another language; undefined otherwise, and without loading the detector when nothing
 * was sampled (no file was read this run).
 */
export async function unsetLanguageWarning(
  collection: string,
  botDir: string,
  sample: LanguageSample,
): Promise<string | undefined> {
  if (sample.texts.length === 0) return undefined;
  const found = findUnsetLanguage(sample.texts, await languageDetector());
  return found ? unsetLanguageMessage(collection, configPathOf(botDir), found) : undefined;
}

/** What `second-look init` writes as a new collection's `language`, and what it read to choose. */
export interface LanguageChoice {
  /** A supported tag, or "auto" when a clear share of the documents reads as another language too. */
  language: string;
  finding: UnsetLanguageFinding | undefined;
}

/**
 * The `language` for a collection being set up from these sampled texts, by the rule the
 * unset-language warning applies: English unless a third of the sample reads as another
 * supported language; that language, or "auto" when English also holds a clear share (the
 * warning's "mixed" case), so neither half of the collection is analysed in the wrong language.
 */
export function chooseCollectionLanguage(texts: readonly string[], detect: LanguageDetector): LanguageChoice {
  const finding = findUnsetLanguage(texts, detect);
  if (!finding) return { language: DEFAULT_LANGUAGE, finding };
  return { language: isMixed(finding) ? AUTO_LANGUAGE : finding.tag, finding };
}
