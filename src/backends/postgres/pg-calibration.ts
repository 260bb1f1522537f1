// A postgres bot's own relevance calibration (`second-look calibrate`), kept in the database
// beside its index rather than in a bot folder: the processes serving one bot may run on several
// hosts, each with its own copy of the folder, and must all score alike. The row holds the same
// document as the embedded engine's `.second-look/calibration.json` and is validated the same way.
import type pg from "pg";
import {
  type CalibrationModel,
  parseStoredCalibration,
  type StoredCalibration,
} from "../../knowledge/ranking-core/index.js";
import type { Tables } from "./pg-schema.js";

/** Remembers the last row read, so a search validates the stored document only when it changed. */
export class CalibrationReader {
  private last: { text: string; model: CalibrationModel } | undefined;

  constructor(
    private readonly t: Tables,
    private readonly bot: string,
    /** Names the database in errors (host:port/db), never the connection string. */
    private readonly server: string,
  ) {}

  /** The bot's stored model, or undefined when it has none (the shipped model applies). */
  async read(client: pg.PoolClient): Promise<CalibrationModel | undefined> {
    const row = await client.query<{ text: string }>(
      `SELECT calibration::text AS text FROM ${this.t.calibrations} WHERE bot = $1`,
      [this.bot],
    );
    const text = row.rows[0]?.text;
    if (text === undefined) return undefined;
    if (this.last?.text !== text) {
      const stored = parseStoredCalibration(
        text,
        `bot ${this.bot}: the calibration stored in ${this.t.calibrations} at PostgreSQL ${this.server}`,
        `rerun \`second-look calibrate ${this.bot}\` or delete the row`,
      );
      this.last = { text, model: stored.model };
    }
    return this.last.model;
  }
}

/** Stores (or replaces) the bot's calibration in one statement. */
export async function writeCalibration(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  stored: StoredCalibration,
): Promise<void> {
  await client.query(
    `INSERT INTO ${t.calibrations} (bot, calibration, stored_at) VALUES ($1, $2::jsonb, now())
     ON CONFLICT (bot) DO UPDATE SET calibration = excluded.calibration, stored_at = excluded.stored_at`,
    [bot, JSON.stringify(stored)],
  );
}
