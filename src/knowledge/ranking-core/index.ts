// The ranking core's interface: the one file of the engine's ranking a backend of its own (the
// PostgreSQL backend, src/backends/postgres/) may import — .dependency-cruiser.cjs rule
// "postgres-reaches-the-engine-only-through-the-ranking-core", docs/architecture.md "The ranking
// core". Behind it: BM25F scoring with proximity and the feedback pass (index/ranker.ts and
// what it reads), calibrated relevance (relevance.ts), the weak signal and retry hints (hints/).
// The embedded engine (engine.ts, the stored index, its refresh) is not behind it: the core
// never imports it.

export type { StoredCalibration } from "../bot-calibration.js";
export { parseStoredCalibration } from "../bot-calibration.js";
export type { Bm25Params } from "../index/bm25.js";
export { DEFAULT_BM25, saturate } from "../index/bm25.js";
export type {
  AnalyzedDocument,
  CollectionIndex,
  IndexableDocument,
  IndexableSection,
  PackedSection,
  TermedDocument,
} from "../index/collection-index.js";
export { analyzeDocument } from "../index/collection-index.js";
export type { CollectionStatistics } from "../index/lexical-index.js";
export { CANDIDATE_UNITS } from "../index/ranker.js";
export type { CalibrationModel } from "../relevance.js";
export {
  candidateCollection,
  expandedQueryWeights,
  feedbackVocabulary,
  holdsTerm,
  leadingDocumentIds,
} from "./candidate-plan.js";
export { type QueryTermPlan, queryTermPlan, queryTermWeights, rankedQueryTerms } from "./query-terms.js";
export { queryTermsFor, RankingCore, toDoc } from "./ranking-core.js";
export { unseenFormPrefixes } from "./unseen-forms.js";
