// The knowledge layer's error codes: the engine, the document loaders and every backend
// (embedded, Huginn, PostgreSQL) raise one of these (docs/errors.md says what each means).
import { layerError } from "../errors.js";

/** Opening a backend, searching it, and the embedded index on disk. */
const BACKEND_CODES = ["unknown-collection", "unknown-backend", "backend-settings-missing"] as const;
const ENGINE_CODES = ["missing-package", "index-unsavable", "not-a-worker", "bad-calibration"] as const;
/** Reading one file (the file is skipped with the message). */
const LOADER_CODES = ["pdf-parse", "pdf-engine-missing", "office-parse", "office-enough-read"] as const;
const MARKUP_CODES = ["markdown-too-deep", "html-unclosed"] as const;
const HUGINN_CODES = ["huginn-unreachable", "huginn-status", "huginn-failed"] as const;
const POSTGRES_CODES = ["postgres-unavailable", "bot-folder-conflict", "index-locked"] as const;
const SCHEMA_CODES = ["bad-schema-name", "schema-too-new", "bad-bm25-parameter", "bad-copy-value"] as const;

export const KNOWLEDGE_ERROR_CODES = [
  ...BACKEND_CODES,
  ...ENGINE_CODES,
  ...LOADER_CODES,
  ...MARKUP_CODES,
  ...HUGINN_CODES,
  ...POSTGRES_CODES,
  ...SCHEMA_CODES,
] as const;
export type KnowledgeErrorCode = (typeof KNOWLEDGE_ERROR_CODES)[number];

/** An error of the knowledge layer; the subclasses below it carry more (a file, a status). */
export class KnowledgeError extends layerError<KnowledgeErrorCode>("knowledge", "KnowledgeError") {}
