// The language of a PostgreSQL collection with no `language` setting, by the embedded indexer's
// rule (index/detected-language.ts): detected once from the sample — the documents whose ids rank
// lowest — and recorded in the schema's `meta` table, keyed by bot and collection, so every
// process serving the bot searches it in the language it was indexed in; decided again only when
// an index run changed the sample's documents, and the collection re-indexed only when their
// majority is another language now.

import type pg from "pg";
import { CollectionAnalysis } from "../../knowledge/analysis/collection-analysis.js";
import { DEFAULT_LANGUAGE, languageOf } from "../../knowledge/analysis/registry.js";
import {
  type CollectionSource,
  type DetectedLanguage,
  detectFromSample,
  type IngestPool,
  languageOfSample,
  type RecordedDetection,
  sampleFingerprint,
  sampleOfFiles,
  settingFor,
} from "../../knowledge/ingest-core.js";
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
): Promise<RecordedDetection | undefined> {
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
  const { tag, documents, sampled, sample } = (parsed ?? {}) as Partial<DetectedLanguage> & {
    sample?: unknown;
  };
  if (typeof tag !== "string" || !languageOf(tag)) return undefined;
  if (!Number.isInteger(documents) || !Number.isInteger(sampled)) return undefined;
  const detected = { tag, documents: documents!, sampled: sampled! };
  if (row.analyzer !== null && row.analyzer !== CollectionAnalysis.of(settingFor(detected)).id)
    return undefined;
  return typeof sample === "string" ? { detected, sample } : { detected };
}

async function recordLanguage(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  collection: string,
  record: RecordedDetection,
): Promise<void> {
  const value = { ...record.detected, ...(record.sample !== undefined ? { sample: record.sample } : {}) };
  await client.query(
    `INSERT INTO ${t.meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [metaKey(bot, collection), JSON.stringify(value)],
  );
}

/** The collection an index run is on: where it is stored, its bot, its source, and the parser pool. */
export interface CollectionRun {
  client: pg.PoolClient;
  t: Tables;
  bot: string;
  botDir: string;
  source: CollectionSource;
  pool: IngestPool;
}

/** The recorded language, else the sample's majority, detected now and recorded (`fresh`). */
export async function unsetCollectionLanguage(
  run: CollectionRun,
  files: readonly string[],
): Promise<RecordedDetection & { fresh: boolean }> {
  const { client, t, bot, botDir, source, pool } = run;
  const recorded = await recordedLanguage(client, t, bot, source.name);
  if (recorded) return { ...recorded, fresh: false };
  // An index run reads every file: nothing stops the sample's parses.
  const found = await detectFromSample(botDir, files, pool);
  const detected = found.detected ?? { tag: DEFAULT_LANGUAGE, documents: 0, sampled: 0 };
  await recordLanguage(client, t, bot, source.name, { detected });
  return { detected, fresh: true };
}

/**
 * After a run of a collection with no setting: the sample as the database now holds it. Unchanged
 * since the record, nothing to do; decided this run, its fingerprint is recorded; else its
 * language is read again from the stored text, and recorded — `moved` when the majority is
 * another language now (the collection is then re-indexed in it).
 */
export async function checkSample(
  run: CollectionRun,
  files: readonly string[],
  collectionId: number,
  recorded: RecordedDetection & { fresh: boolean },
): Promise<{ detected: DetectedLanguage; moved?: DetectedLanguage }> {
  const { client, t, bot, botDir, source } = run;
  const members = sampleOfFiles(botDir, files);
  const ids = members.map((m) => m.id);
  const hashes = await client.query<{ path: string; content_hash: string }>(
    `SELECT path, content_hash FROM ${t.documents} WHERE collection_id = $1 AND path = ANY($2)`,
    [collectionId, ids],
  );
  const stored = new Map(hashes.rows.map((r) => [r.path, { contentHash: r.content_hash }]));
  const sample = sampleFingerprint(members, stored);
  const { detected } = recorded;
  if (sample === recorded.sample) return { detected };
  if (recorded.fresh) {
    await recordLanguage(client, t, bot, source.name, { detected, sample });
    return { detected };
  }
  const now = await languageOfSample(await sampleDocuments(client, t, collectionId, ids));
  if (now.tag !== detected.tag) {
    await recordLanguage(client, t, bot, source.name, { detected: now });
    return { detected, moved: now };
  }
  await recordLanguage(client, t, bot, source.name, { detected: now, sample });
  return { detected: now };
}

/** The sample's documents as stored: title and sections in order, in the members' order. */
async function sampleDocuments(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  ids: readonly string[],
): Promise<{ title: string; sections: { content: string }[] }[]> {
  const rows = await client.query<{ path: string; title: string; content: string }>(
    `SELECT d.path, d.title, s.content FROM ${t.documents} d
     JOIN ${t.sections} s ON s.document_id = d.id
     WHERE d.collection_id = $1 AND d.path = ANY($2)
     ORDER BY d.path, s.ord`,
    [collectionId, ids],
  );
  const byPath = new Map<string, { title: string; sections: { content: string }[] }>();
  for (const row of rows.rows) {
    const document = byPath.get(row.path) ?? { title: row.title, sections: [] };
    document.sections.push({ content: row.content });
    byPath.set(row.path, document);
  }
  return ids.flatMap((id) => byPath.get(id) ?? []);
}
