// What both indexers share about a collection's files — which files it holds (its globs, the
// exclusions, the file cap), parsing them in parser threads under the bot's time and memory
// bounds, and the refresh report — so a file is skipped, bounded and reported alike whether the
// index lives in the bot folder or in PostgreSQL. The PostgreSQL indexer
// (src/backends/postgres/pg-indexer.ts) reaches the embedded engine's indexing only through
// this file (.dependency-cruiser.cjs, docs/architecture.md "The ranking core").

export type { DetectedLanguage } from "./analysis/unset-language.js";
export {
  detectFromSample,
  languageOfSample,
  type RecordedDetection,
  sampleFingerprint,
  sampleOfFiles,
  settingFor,
} from "./index/detected-language.js";
export type { IngestedDocument, IngestResult } from "./index/ingest-file.js";
export { boundsKey, type IngestLimits, ingestLimits, refusedAgain } from "./index/ingest-limits.js";
export { IngestPool } from "./index/ingest-pool.js";
export {
  ALWAYS_EXCLUDED,
  admitFile,
  type CollectionSource,
  emptyRefreshReport,
  listCollectionFiles,
  MAX_FILES_PER_COLLECTION,
  type RefreshProgress,
  type RefreshReport,
  warnOfWhatWasRead,
} from "./index/refresh.js";
