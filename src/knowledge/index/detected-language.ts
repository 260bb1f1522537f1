// How indexing decides, and keeps, the language of a collection with no `language` setting
// (analysis/unset-language.ts has the rule): from the sample — the documents whose ids rank
// lowest — decided once and recorded with the index, and decided again only when the sample's
// documents changed, so a collection is re-indexed only when its majority moved. Both indexers
// use it: the embedded one (refresh.ts) and PostgreSQL's (through ingest-core.ts).

import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { CollectionAnalysis } from "../analysis/collection-analysis.js";
import { languageDetector } from "../analysis/detect.js";
import { DEFAULT_LANGUAGE, languageOf } from "../analysis/registry.js";
import {
  type DetectedLanguage,
  detectCollectionLanguage,
  detectionText,
  isDetectable,
  sampleMembers,
} from "../analysis/unset-language.js";
import { documentIdFor } from "../documents/document-id.js";
import type { IndexStore, SkippedFile } from "./index-store.js";
import type { IngestResult } from "./ingest-file.js";
import type { IngestPool } from "./ingest-pool.js";
import type { StoredDocument } from "./stored-document.js";

/** The tag an unset collection is analysed with: English as the setting's absence, as always. */
export const settingFor = (detected: DetectedLanguage): string | undefined =>
  detected.tag === DEFAULT_LANGUAGE ? undefined : detected.tag;

/** A document of the sample as the detector needs it. */
export interface SampleText {
  title: string;
  sections: readonly { content: string }[];
}

/** The language the sampled documents read as ("en", from none, when none has enough letters). */
export async function languageOfSample(documents: readonly SampleText[]): Promise<DetectedLanguage> {
  const texts = documents.map(detectionText).filter(isDetectable);
  if (texts.length === 0) return { tag: DEFAULT_LANGUAGE, documents: 0, sampled: 0 };
  return detectCollectionLanguage(texts, await languageDetector());
}

/** The sample of a collection's files: their ids (relative to the bot folder), lowest rank first. */
export function sampleOfFiles(botDir: string, files: readonly string[]): { absPath: string; id: string }[] {
  return sampleMembers(
    files
      .map((absPath) => ({ absPath, id: documentIdFor(botDir, absPath) }))
      .filter((f): f is { absPath: string; id: string } => f.id !== undefined),
  );
}

/**
 * What the sample's documents are, as one hash of each member's id and content hash (none: not
 * indexed). The language can change only when this does.
 */
export function sampleFingerprint(
  members: readonly { id: string }[],
  documents: ReadonlyMap<string, { contentHash: string }>,
): string {
  const hash = createHash("sha256");
  for (const m of members) hash.update(`${m.id}\u0000${documents.get(m.id)?.contentHash ?? ""}\u0001`);
  return hash.digest("hex").slice(0, 32);
}

/** A detection as recorded: the language, and the sample it was decided on (sampleFingerprint). */
export interface RecordedDetection {
  detected: DetectedLanguage;
  sample?: string;
}

/** The detection the stored index records, when its documents were analysed in that language. */
export async function storedDetection(
  store: IndexStore,
  collection: string,
): Promise<RecordedDetection | undefined> {
  const found = await store.detection(collection);
  if (!found || !languageOf(found.tag)) return undefined;
  if (CollectionAnalysis.of(settingFor(found)).id !== found.analyzer) return undefined;
  const detected = { tag: found.tag, documents: found.documents, sampled: found.sampled };
  return found.sample === undefined ? { detected } : { detected, sample: found.sample };
}

/** The index as it stands, whose text the sample reads instead of parsing an unchanged file again. */
export interface StandingIndex {
  documents: ReadonlyMap<string, StoredDocument>;
  skipped: ReadonlyMap<string, SkippedFile>;
  /** The pool's bounds (boundsKey): a file refused under these is refused again without a parse. */
  limits: string;
}

/** A detection from the sample, or how many of its files a stop left unread. */
export type SampleDetection =
  | { detected: DetectedLanguage; preparsed?: ReadonlyMap<string, IngestResult> }
  | { detected?: undefined; unread: number };

/**
 * The language of a collection with no setting, from its sample's files. A file the standing
 * index holds unchanged is read from it, one it refused under the same bounds is left out, and
 * the rest are parsed (in English, as an unset collection always was) under the run's `signal`:
 * a stop leaves the language undecided rather than the run waiting on a slow file. When the
 * sample reads as English, its parses are the run's own (what they were parsed in), so an English
 * collection parses no file twice; its refusals are the run's in any language.
 */
export async function detectFromSample(
  botDir: string,
  files: readonly string[],
  pool: IngestPool,
  options: { signal?: AbortSignal; standing?: StandingIndex } = {},
): Promise<SampleDetection> {
  const { signal, standing } = options;
  const preparsed = new Map<string, IngestResult>();
  const refused = new Map<string, IngestResult>();
  const read = await Promise.all(
    sampleOfFiles(botDir, files).map(async ({ absPath, id }): Promise<SampleText | "stopped" | undefined> => {
      const known = standing ? await standingText(absPath, id, standing) : undefined;
      if (known !== undefined) return known === "refused" ? undefined : known;
      const result = await pool.ingest({ absPath, id }, signal ? { signal } : {});
      if (!result.ok) {
        if (result.stopped) return "stopped";
        refused.set(absPath, result);
        return undefined;
      }
      preparsed.set(absPath, result);
      return result.unchanged ? undefined : result.document;
    }),
  );
  const unread = read.filter((r) => r === "stopped").length;
  if (unread > 0) return { unread };
  const detected = await languageOfSample(read.filter((r): r is SampleText => r !== undefined));
  // A refusal holds in any language (the bounds are the same), so the run never parses a refused file again.
  if (detected.tag !== DEFAULT_LANGUAGE) return { detected, preparsed: refused };
  for (const [path, result] of refused) preparsed.set(path, result);
  return { detected, preparsed };
}

/** A sample file as the standing index has it: its document, "refused", or undefined (read it). */
async function standingText(
  absPath: string,
  id: string,
  standing: StandingIndex,
): Promise<SampleText | "refused" | undefined> {
  const info = await stat(absPath).catch(() => undefined);
  if (!info) return undefined;
  const document = standing.documents.get(id);
  if (document && document.size === info.size && document.mtimeMs === info.mtimeMs) return document;
  const refused = standing.skipped.get(id);
  if (
    refused &&
    refused.size === info.size &&
    refused.mtimeMs === info.mtimeMs &&
    refused.limits === standing.limits
  )
    return "refused";
  return undefined;
}
