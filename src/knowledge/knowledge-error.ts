// The knowledge layer's error codes: the engine, the document loaders and every backend
// (embedded, Huginn, PostgreSQL) raise one of these (docs/errors.md says what each means).
import { layerError } from "../errors.js";

export const KNOWLEDGE_ERROR_CODES = [
  "unknown-collection",
  "unknown-backend",
  "backend-settings-missing",
  "missing-package",
  "index-unsavable",
  "not-a-worker",
  "bad-calibration",
  "pdf-parse",
  "pdf-engine-missing",
  "office-parse",
  "office-enough-read",
  "markdown-too-deep",
  "html-unclosed",
  "huginn-unreachable",
  "huginn-status",
  "huginn-failed",
  "postgres-unavailable",
  "bot-folder-conflict",
  "index-locked",
  "bad-schema-name",
  "schema-too-new",
  "bad-bm25-parameter",
  "bad-copy-value",
] as const;
export type KnowledgeErrorCode = (typeof KNOWLEDGE_ERROR_CODES)[number];

/** An error of the knowledge layer; the subclasses below it carry more (a file, a status). */
export class KnowledgeError extends layerError<KnowledgeErrorCode>("knowledge", "KnowledgeError") {}
