// A bot folder of a few pages indexed into a throwaway PostgreSQL (postgres-server.ts), for tests
// that compare the PostgreSQL backend with the embedded engine on the same pages.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import { openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import {
  PostgresBackend,
  type PostgresBackendOptions,
} from "../../../src/backends/postgres/postgres-backend.js";
import { type PostgresServer, startPostgres } from "./postgres-server.js";

export const PAGES_BOT_SCHEMA = "second_look";

export interface PagesBot {
  server: PostgresServer;
  /** The bot folder: its pages are under docs/. */
  botDir: string;
  /** The backend the pages were indexed with (`refresh` has run). */
  backend: PostgresBackend;
  /** Opens another backend on the same database and bot (as a second process would). */
  open(): Promise<PostgresBackend>;
  /** Closes the backend, stops the server and deletes the folder. */
  stop(): Promise<void>;
}

/** Writes `pages` (file name under docs/ → text) into a new bot folder and indexes them. */
export async function indexPagesBot(
  bot: string,
  pages: Readonly<Record<string, string>>,
  collections: PostgresBackendOptions["collections"],
): Promise<PagesBot> {
  const server = await startPostgres();
  const root = await mkdtemp(join(tmpdir(), `second-look-pg-${bot}-`));
  const botDir = join(root, bot);
  const open = () =>
    PostgresBackend.open({
      bot,
      urlEnv: "TEST_DATABASE_URL",
      schema: PAGES_BOT_SCHEMA,
      collections,
      env: { TEST_DATABASE_URL: server.url },
    });
  let backend: PostgresBackend | undefined;
  try {
    await mkdir(join(botDir, "docs"), { recursive: true });
    for (const [name, text] of Object.entries(pages)) await writeFile(join(botDir, "docs", name), text);
    backend = await open();
    await backend.refresh(botDir);
  } catch (error) {
    await backend?.close();
    await server.stop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const indexed = backend;
  return {
    server,
    botDir,
    backend: indexed,
    open,
    stop: async () => {
      await indexed.close();
      await server.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The same pages on both backends: PostgreSQL (indexed by indexPagesBot) and the embedded engine over its folder. */
export interface PagesOnBoth {
  bot: PagesBot;
  engine: KnowledgeEngine;
}

export async function indexPagesOnBoth(
  bot: string,
  pages: Readonly<Record<string, string>>,
  collections: PostgresBackendOptions["collections"],
): Promise<PagesOnBoth> {
  const indexed = await indexPagesBot(bot, pages, collections);
  try {
    const { engine } = await openEmbeddedEngine(indexed.botDir, collections);
    return { bot: indexed, engine };
  } catch (error) {
    await indexed.stop();
    throw error;
  }
}

/**
 * Asserts both backends answer each query with the same SearchResponse, in full mode, without
 * feedback and brief.
 */
export async function expectSameResponses(both: PagesOnBoth, queries: readonly string[]): Promise<void> {
  for (const query of queries) {
    for (const request of [{ query }, { query, rerank: false }, { query, brief: true, limit: 2 }]) {
      expect(await both.bot.backend.search(request), JSON.stringify(request)).toEqual(
        await both.engine.search(request),
      );
    }
  }
}
