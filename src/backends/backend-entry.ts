// What one kind of knowledge backend (`knowledge.backend` in a bot's config.json) says about
// itself to the rest of the code: how a bot's config reads for it, which collections a bot may
// search, what its config must hold, and how to open it. Each kind is one file beside this one,
// registered in registry.ts; its implementation is imported on first `open`, so a process that
// never opens a PostgreSQL bot never loads `pg` (src/optional-package.ts).

import type { IngestLimitsConfig } from "../knowledge/index/ingest-limits.js";
import type { RefreshProgress, RefreshReport } from "../knowledge/index/refresh.js";
import type { KnowledgeBackend } from "../types.js";
import type { OpenEmbeddedOptions } from "./embedded/open-embedded.js";

/** A bot's `knowledge` block as every backend reads it (src/bots/config-schema.ts validates it). */
export interface KnowledgeSettings {
  backend: string;
  collections: Record<string, { paths: readonly string[]; exclude?: readonly string[]; language?: string }>;
  huginn?: { url: string; collections: readonly string[]; timeoutMs?: number | undefined } | undefined;
  postgres?: { urlEnv: string; schema: string; botId?: string | undefined } | undefined;
  ingest?: IngestLimitsConfig | undefined;
}

export interface BackendBot {
  name?: string;
  dir: string;
  config: { knowledge: KnowledgeSettings };
}

export interface OpenedBackend {
  backend: KnowledgeBackend;
  /** What the index refresh did (empty for remote backends and for postgres unless `index`). */
  reports: RefreshReport[];
  /** Releases what the backend holds (a remote backend's connections); safe to call twice. */
  close: () => Promise<void>;
}

export interface OpenBackendOptions {
  onProgress?: RefreshProgress;
  /**
   * Bring a shared (postgres) index up to date with the bot's files before returning. The
   * embedded index is always refreshed; a shared one only when asked (`second-look index`), so
   * the processes serving a bot do not each re-read its files.
   */
  index?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Embedded index: how long the refresh may take before the engine answers from the index as it stands. */
  refreshBudgetMs?: OpenEmbeddedOptions["refreshBudgetMs"];
  /** Embedded index: a refresh the budget stopped finishes in the background (a server's choice). */
  finishRefreshInBackground?: boolean;
}

/** A problem in a bot's knowledge block, at a path inside it. */
export interface SettingsIssue {
  path: string[];
  message: string;
}

export interface BackendEntry {
  /**
   * For a backend whose own server indexes and analyses the collections (Huginn): that server,
   * as `second-look index` names it ("the Huginn server at http://…"). Then there is nothing
   * for us to index, and no collection language known here.
   */
  remoteServer?: (knowledge: KnowledgeSettings) => string;
  /** `embedded (1 collection)`, for `bots` and the discovery log line. */
  describe(knowledge: KnowledgeSettings): string;
  /** The collections a bot may search. */
  collections(knowledge: KnowledgeSettings): string[];
  /** What this backend needs of the knowledge block beyond its schema. */
  settingsIssues(knowledge: KnowledgeSettings): SettingsIssue[];
  /** Opens the backend; imports its implementation on first use. */
  open(bot: BackendBot, options: OpenBackendOptions): Promise<OpenedBackend>;
}

/** `1 collection`, `2 collections`. */
export function collectionCount(n: number): string {
  return `${n} collection${n === 1 ? "" : "s"}`;
}
