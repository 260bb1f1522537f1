// A collection without a `language` is analysed in the language most of its documents read as:
// before its files are analysed, a sample of them (the same documents whatever the order files
// are read in) is run through the detector once, and the majority decides (English unless
// another language holds UNSET_LANGUAGE_MIN_SHARE of the sample). The result is recorded with
// the index, so searches analyse queries alike and later runs do not detect again; an English
// collection is analysed exactly as it always was (so no English bot re-indexes on upgrade).

import { createHash } from "node:crypto";
import { languageEvidence } from "../../weakness.js";
import { DETECTION_SAMPLE_CHARS, type LanguageDetector } from "./detect.js";
import { AUTO_LANGUAGE, DEFAULT_LANGUAGE, languageOf } from "./registry.js";

/** Documents sampled per index run: enough for a clear majority, a bounded cost (~40 detections). */
export const UNSET_LANGUAGE_SAMPLE_DOCUMENTS = 40;

/**
 * The share of the sampled documents another language must hold to be the collection's: a third
 * of a collection analysed in the wrong language costs too much. English documentation sampled whole
 * reads as English throughout (pydocs 40 of 40, lohelp en-us 40 of 40), so misread documents
 * come nowhere near it.
 */
export const UNSET_LANGUAGE_MIN_SHARE = 1 / 3;

/** An English share of the sample from which `init` calls the collection mixed (and writes "auto"). */
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
  /** Documents sampled (with enough letters to judge: MIN_SAMPLE_LETTERS). */
  sampled: number;
}

/**
 * Letters a sampled document needs to count (a Han, Kana or Hangul character as three): a page
 * that is a heading and a few words says nothing reliable about its language ("A / Alpha text."
 * reads as Catalan, a hair ahead of English), and one such page must not decide a collection.
 */
export const MIN_SAMPLE_LETTERS = 40;

/** Whether a document's detection text is worth a verdict (MIN_SAMPLE_LETTERS). */
export function isDetectable(text: string): boolean {
  return languageEvidence(text) >= MIN_SAMPLE_LETTERS;
}

/** The text the detector reads of a document: its title, then its sections, cut to what it reads. */
export function detectionText(document: { title: string; sections: readonly { content: string }[] }): string {
  let text = document.title;
  for (const section of document.sections) {
    if (text.length >= DETECTION_SAMPLE_CHARS) break;
    text += `\n${section.content}`;
  }
  return text.slice(0, DETECTION_SAMPLE_CHARS);
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
 * The sample's documents: of `documents`, the UNSET_LANGUAGE_SAMPLE_DOCUMENTS whose ids rank
 * lowest (sampleRank; the id breaks a tie). The same documents whatever order they come in.
 */
export function sampleMembers<T extends { id: string }>(documents: readonly T[]): T[] {
  return documents
    .map((document) => ({ document, rank: sampleRank(document.id) }))
    .sort(
      (a, b) =>
        a.rank - b.rank || (a.document.id < b.document.id ? -1 : a.document.id > b.document.id ? 1 : 0),
    )
    .slice(0, UNSET_LANGUAGE_SAMPLE_DOCUMENTS)
    .map((ranked) => ranked.document);
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
    const text = detectionText(document);
    if (!isDetectable(text)) return;
    this.kept.push({ rank, text });
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

/** The language a collection without a setting is analysed in, and what decided it. */
export interface DetectedLanguage {
  /** A supported tag ("en" when no other language holds enough of the sample). */
  tag: string;
  /** Sampled documents read as `tag`. */
  documents: number;
  /** Documents sampled (with enough letters to judge: MIN_SAMPLE_LETTERS). */
  sampled: number;
}

/**
 * The majority language of a collection's sampled texts: the supported language other than
 * English that UNSET_LANGUAGE_MIN_SHARE of them reliably read as (the largest such), else
 * English. The non-English plurality wins from a third of the sample, not a half: partly
 * translated documentation (LibreOffice's help in Swedish, Finnish, Japanese) has many pages
 * still in English, and its users ask in the translation's language. What `init` and both
 * indexers decide with.
 */
export function detectCollectionLanguage(
  texts: readonly string[],
  detect: LanguageDetector,
): DetectedLanguage {
  const found = findUnsetLanguage(texts, detect);
  if (found) return { tag: found.tag, documents: found.documents, sampled: found.sampled };
  let english = 0;
  for (const text of texts) {
    const guess = detect(text);
    if (guess?.reliable && guess.tag === DEFAULT_LANGUAGE) english++;
  }
  return { tag: DEFAULT_LANGUAGE, documents: english, sampled: texts.length };
}

/**
 * The line `index` and `bots` show for a collection without a setting: the language it is
 * analysed in, what decided it, and the key that fixes it.
 */
export function detectedLanguageLine(collection: string, detected: DetectedLanguage): string {
  const name = languageOf(detected.tag)?.name ?? detected.tag;
  return `language: ${detected.tag} (${name}; detected from ${detected.documents} of ${detected.sampled} documents; set knowledge.collections.${collection}.language to fix it)`;
}

/** What `second-look init` writes as a new collection's `language`, and what it read to choose. */
export interface LanguageChoice {
  /** A supported tag, or "auto" when a clear share of the documents reads as another language too. */
  language: string;
  finding: UnsetLanguageFinding | undefined;
}

/**
 * The `language` for a collection being set up from these sampled texts, by the rule indexing
 * detects an unset collection's language with: English unless a third of the sample reads as
 * another supported language; that language, or "auto" when English also holds a clear share
 * (isMixed), so neither half of the collection is analysed in the wrong language.
 */
export function chooseCollectionLanguage(texts: readonly string[], detect: LanguageDetector): LanguageChoice {
  const finding = findUnsetLanguage(texts, detect);
  if (!finding) return { language: DEFAULT_LANGUAGE, finding };
  return { language: isMixed(finding) ? AUTO_LANGUAGE : finding.tag, finding };
}
