// The language of a PostgreSQL collection with no `language` setting: detected once from the
// sample the embedded indexer reads (index/refresh.ts, detectFromSample) and recorded in the
// schema's `meta` table, keyed by bot and collection, so every process serving the bot searches
// it in the language it was indexed in, and later runs do not detect again.

import type pg from "pg";
import { CollectionAnalysis } from "../analysis/collection-analysis.js";
import { languageOf } from "../analysis/registry.js";
import {
  type CollectionSource,
  type DetectedLanguage,
  detectFromSample,
  type IngestPool,
  listCollectionFiles,
  settingFor,
} from "../ingest-core.js";
import type { Tables } from "./pg-schema.js";

const metaKey = (bot: string, collection: string) => `detected-language ${JSON.stringify([bot, collection])}`;

/**
 * The recorded detection of a collection with no setting, when the collection is still analysed
 * in it (its `analyzer` is that language's); undefined when none is recorded or it is out of date.
 */
export async function recordedLanguage(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  collection: string,
): Promise<DetectedLanguage | undefined> {
  const result = await client.query<{ value: string; analyzer: string | null }>(
    `SELECT m.value, c.analyzer FROM ${t.meta} m
     LEFT JOIN ${t.collections} c ON c.bot = $2 AND c.name = $3
     WHERE m.key = $1`,
    [metaKey(bot, collection), bot, collection],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.value);
  } catch {
    return undefined;
  }
  const { tag, documents, sampled } = (parsed ?? {}) as Partial<DetectedLanguage>;
  if (typeof tag !== "string" || !languageOf(tag)) return undefined;
  if (!Number.isInteger(documents) || !Number.isInteger(sampled) || !sampled) return undefined;
  const detected = { tag, documents: documents!, sampled: sampled! };
  if (row.analyzer !== null && row.analyzer !== CollectionAnalysis.of(settingFor(detected)).id)
    return undefined;
  return detected;
}

/** The recorded language, else the sample's majority, detected now and recorded. */
export async function unsetCollectionLanguage(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  botDir: string,
  source: CollectionSource,
  pool: IngestPool,
): Promise<DetectedLanguage> {
  const recorded = await recordedLanguage(client, t, bot, source.name);
  if (recorded) return recorded;
  const { detected } = await detectFromSample(botDir, await listCollectionFiles(botDir, source), pool);
  if (detected.sampled > 0) {
    await client.query(
      `INSERT INTO ${t.meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [metaKey(bot, source.name), JSON.stringify(detected)],
    );
  }
  return detected;
}
