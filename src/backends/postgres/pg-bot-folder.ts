// Which bot folder a collection in a shared database belongs to. A bot's rows are keyed by its
// configured `knowledge.postgres.botId`, else by its folder's name, so two folders with the same
// name (`a/kb`, `b/kb`) would share one key: the second one's index run would delete the first
// one's documents and each would search the other's. The folder whose run wrote a collection
// under a name-derived key is recorded (`collections.folder`, schema version 5); another folder
// is refused with one line saying to set a botId. A configured botId says which folders are one
// bot (its copies on several hosts), so under it any folder may write.
import type pg from "pg";
import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import type { Tables } from "./pg-schema.js";

/** Where an index run or a search comes from, to tell one bot folder from another with the same name. */
export interface BotFolder {
  /** The bot folder, resolved (symbolic links followed). */
  folder: string;
  /** True when the key is the bot's configured knowledge.postgres.botId (any folder may use it). */
  botIdConfigured: boolean;
}

/** An index run or search that would reach another bot folder's documents. */
export class BotFolderConflictError extends KnowledgeError {
  override readonly name = "BotFolderConflictError";
  constructor(message: string) {
    super("bot-folder-conflict", message);
  }
}

const FIX = "give each bot its own knowledge.postgres.botId in its config.json (copies of one bot share one)";

/**
 * Records `from.folder` as the collection's writer, or refuses (before anything is written) when
 * the collection's documents came from another folder under a name-derived key. Rows from
 * before version 5 have no folder: a run claims them unless it would delete most of them, which
 * is what another folder with the same name does (the folder that wrote them may have deleted a
 * few files since). Call with the collection's index lock held.
 */
export async function claimCollection(
  client: pg.PoolClient,
  t: Tables,
  target: { bot: string; collection: string; collectionId: number; server: string },
  from: BotFolder,
  stored: readonly string[],
  current: ReadonlySet<string>,
): Promise<void> {
  if (!from.botIdConfigured && stored.length > 0) {
    const row = await client.query<{ folder: string | null }>(
      `SELECT folder FROM ${t.collections} WHERE id = $1`,
      [target.collectionId],
    );
    const owner = row.rows[0]?.folder ?? null;
    if (owner !== from.folder) {
      const missing = stored.filter((path) => !current.has(path));
      const where = `bot ${target.bot}: collection ${target.collection} in PostgreSQL at ${target.server}`;
      if (owner !== null) {
        const harm = missing.length
          ? `would delete ${missing.length} of its ${stored.length} documents`
          : `would overwrite its ${stored.length} documents`;
        throw new BotFolderConflictError(
          `${where} was indexed from ${owner}, not ${from.folder}; indexing ${harm}: refused — ${FIX}`,
        );
      }
      // A folder that lacks most of them is another bot's, not this one after a few deletions.
      if (missing.length * 2 > stored.length) {
        throw new BotFolderConflictError(
          `${where} holds ${missing.length} documents (e.g. ${missing[0]}) that ${from.folder} does not have, ` +
            `written before second-look recorded bot folders: refused — if another bot folder named ${target.bot} wrote them, ${FIX}; ` +
            `if this bot did, set its knowledge.postgres.botId to "${target.bot}"`,
        );
      }
    }
  }
  await client.query(`UPDATE ${t.collections} SET folder = $2 WHERE id = $1 AND folder IS DISTINCT FROM $2`, [
    target.collectionId,
    from.folder,
  ]);
}

/**
 * Why a search from `from` must not read a collection another folder indexed under a
 * name-derived key, or undefined when it may.
 */
export function readConflict(
  target: { bot: string; collection: string; server: string },
  from: BotFolder | undefined,
  owner: string | null,
): BotFolderConflictError | undefined {
  if (!from || from.botIdConfigured || owner === null || owner === from.folder) return undefined;
  return new BotFolderConflictError(
    `bot ${target.bot}: collection ${target.collection} in PostgreSQL at ${target.server} was indexed from ${owner}, ` +
      `not ${from.folder}: refused — ${FIX}`,
  );
}
