// A bot's own relevance calibration (`second-look calibrate`): for the embedded engine stored
// beside its index in <bot>/.second-look/calibration.json and read whenever the engine opens; for
// a postgres bot stored in its database (src/backends/postgres/pg-calibration.ts). Never
// written into a source file. A file that does not validate stops the bot with a message naming
// the file and the key, rather than silently falling back to the shipped model.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as z from "zod";
import { KnowledgeError } from "./knowledge-error.js";
import type { CalibrationModel } from "./relevance.js";
import { FEATURE_NAMES } from "./relevance-features.js";

/** Where a bot's own calibration lives (beside `.second-look/index`, git-ignored with it). */
export function calibrationFile(botDir: string): string {
  return join(botDir, ".second-look", "calibration.json");
}

const finite = z.number().finite();

export const storedCalibrationSchema = z
  .object({
    version: z.literal(1),
    model: z.object({
      features: z.array(z.enum(FEATURE_NAMES)).min(1),
      weights: z.array(finite),
      bias: finite,
    }),
    /** Where the fit came from, for the owner reading the file (not used by the engine). */
    fittedOn: z
      .object({ questions: z.string(), count: z.number().int(), at: z.string() })
      .partial()
      .passthrough()
      .optional(),
  })
  .passthrough()
  .superRefine((v, ctx) => {
    if (v.model.weights.length !== v.model.features.length) {
      ctx.addIssue({
        code: "custom",
        path: ["model", "weights"],
        message: `has ${v.model.weights.length} weights for ${v.model.features.length} features`,
      });
    }
  });

export type StoredCalibration = z.output<typeof storedCalibrationSchema>;

export class BotCalibrationError extends KnowledgeError {
  constructor(message: string) {
    super("bad-calibration", message);
    this.name = "BotCalibrationError";
  }
}

/** The bot's own model, or undefined when it has none. */
export async function readBotCalibration(botDir: string): Promise<CalibrationModel | undefined> {
  const file = calibrationFile(botDir);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new BotCalibrationError(`${file}: ${(error as Error).message}`);
  }
  return parseStoredCalibration(text, file, "rerun `second-look calibrate` or delete the file").model;
}

/**
 * A stored calibration read back (from its file, or a postgres bot's row): `where` names it in
 * the error, `remedy` says what to do about a bad one.
 */
export function parseStoredCalibration(text: string, where: string, remedy: string): StoredCalibration {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BotCalibrationError(`${where}: not JSON (${(error as Error).message}); ${remedy}`);
  }
  const parsed = storedCalibrationSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BotCalibrationError(
      `${where}: ${issue.path.join(".") || "(top level)"} ${issue.message}; ${remedy}`,
    );
  }
  return parsed.data;
}

/** Writes the file whole or not at all (a temporary file renamed over the old one). */
export async function writeBotCalibration(botDir: string, stored: StoredCalibration): Promise<string> {
  const file = calibrationFile(botDir);
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(stored, null, 2)}\n`);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}
