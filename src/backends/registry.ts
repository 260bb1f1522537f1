// Every kind of knowledge backend a bot's config.json may name (`knowledge.backend`). Adding
// one is a file beside this one (a BackendEntry) and one line here.
import { KnowledgeError } from "../knowledge/knowledge-error.js";
import type { BackendEntry } from "./backend-entry.js";
import { embeddedBackend } from "./embedded/embedded-entry.js";
import { huginnBackend } from "./huginn/huginn-entry.js";
import { postgresBackend } from "./postgres/postgres-entry.js";

const BACKENDS = {
  embedded: embeddedBackend,
  huginn: huginnBackend,
  postgres: postgresBackend,
} as const satisfies Record<string, BackendEntry>;

export type BackendKind = keyof typeof BACKENDS;

/** The names `knowledge.backend` accepts, the default first. */
export const KNOWLEDGE_BACKENDS = Object.keys(BACKENDS) as [BackendKind, ...BackendKind[]];

/** The entry of a backend kind; an unknown kind (a hand-built config) is a SecondLookError. */
export function backendEntry(kind: string): BackendEntry {
  if (Object.hasOwn(BACKENDS, kind)) return BACKENDS[kind as BackendKind];
  throw new KnowledgeError(
    "unknown-backend",
    `unknown knowledge.backend "${kind}" (known: ${KNOWLEDGE_BACKENDS.join(", ")})`,
  );
}
