import { availableParallelism } from "node:os";
import * as z from "zod";
import { DEADLINES } from "../../deadline.js";
import { isRefusedByType } from "../documents/document-format.js";
import { WALL_CLOCK_FACTOR } from "../documents/parse-bound.js";
import { TEXT_EXTRACTION_VERSION } from "../documents/text-extraction.js";

// The bounds on turning one file into an indexed document. They hold whatever the parser does
// (a parse runs in a worker thread that is terminated at its bound), so one hostile or huge
// file costs at most this much and is then skipped with a warning that names the bound.

/**
 * Bound on reading, parsing and analysing one file: the CPU time of its parser thread where the
 * platform tells it (Linux), else wall-clock time; and WALL_CLOCK_FACTOR times as much wall-clock
 * time in any case (documents/parse-bound.ts). It admits what the size caps admit (a 10 MB text
 * file, a 5,000-page PDF): measured by `npm run bench -- hostile` (bench/results/hostile.md), a
 * 4,999-page PDF parses in about 16 s and a 9.9 MB Markdown file in about 10 s on a shared 2-core
 * machine, so the former 15 s refused benign files the caps let through; and being CPU time, a
 * busy machine that gives the parser a third of a core does not turn 16 s into a refusal.
 */
export const DEFAULT_FILE_TIMEOUT_MS = DEADLINES.ingestFileMs;
/** Heap bound of the worker parsing one file, and the most its file may add to the process RSS. */
export const DEFAULT_FILE_MEMORY_MB = 512;
/** Parser workers: one per core, at most four (each may hold up to its memory bound). */
export const DEFAULT_INGEST_WORKERS = Math.max(1, Math.min(4, availableParallelism()));

export const IngestLimitsSchema = z.strictObject({
  fileTimeoutMs: z.number().int().min(100).max(600_000).optional(),
  fileMemoryMb: z.number().int().min(64).max(8_192).optional(),
  workers: z.number().int().min(1).max(16).optional(),
  refreshBeforeAnswerMs: z.number().int().min(0).max(600_000).optional(),
});
export type IngestLimitsConfig = z.output<typeof IngestLimitsSchema>;

export interface IngestLimits {
  /** CPU time of the parser thread (wall-clock time where that is not known). */
  fileTimeoutMs: number;
  /** The wall-clock last resort; default WALL_CLOCK_FACTOR × fileTimeoutMs. */
  fileWallTimeoutMs?: number;
  fileMemoryMb: number;
  workers: number;
}

export function ingestLimits(config: IngestLimitsConfig = {}): IngestLimits {
  return {
    fileTimeoutMs: config.fileTimeoutMs ?? DEFAULT_FILE_TIMEOUT_MS,
    fileMemoryMb: config.fileMemoryMb ?? DEFAULT_FILE_MEMORY_MB,
    workers: config.workers ?? DEFAULT_INGEST_WORKERS,
  };
}

/**
 * The per-file bounds and the loaders' extraction version as one short string, stored with a
 * refused file: the file is refused again without a parse while it and these are unchanged (a
 * loader that now reads what it refused, say an encoding, gets each refused file once more).
 */
export function boundsKey(limits: IngestLimits): string {
  return `${limits.fileTimeoutMs}ms/${limits.fileMemoryMb}MB/x${TEXT_EXTRACTION_VERSION}`;
}

/**
 * Whether a file an earlier run refused is refused again without a parse: it is as it was (size,
 * modification time) and so are the bounds it was refused under. A refusal by the file's type
 * is never honoured: the indexers no longer remember one (refresh.ts admitFile), an older index
 * may hold some, and the type may be read now (document-format.ts isRefusedByType).
 */
export function refusedAgain(
  refused: { size: number; mtimeMs: number; reason: string },
  refusedUnder: string,
  file: { size: number; mtimeMs: number },
  bounds: string,
): boolean {
  return (
    !isRefusedByType(refused.reason) &&
    refused.size === file.size &&
    refused.mtimeMs === file.mtimeMs &&
    refusedUnder === bounds
  );
}

/** The wall-clock last resort of `limits`. */
export function wallTimeoutOf(limits: IngestLimits): number {
  return limits.fileWallTimeoutMs ?? limits.fileTimeoutMs * WALL_CLOCK_FACTOR;
}

/**
 * How long a command that must answer (search, mcp, ask) spends refreshing the index before it
 * answers from the index as it stands; `second-look index` has no such bound.
 */
export const REFRESH_BUDGET_FOR_ANSWERS_MS = 10_000;

/**
 * The refresh budget of a command that must answer: the bot's
 * `knowledge.ingest.refreshBeforeAnswerMs`, else REFRESH_BUDGET_FOR_ANSWERS_MS. A bot over a
 * large, often-changed folder may answer sooner (0: from the index as it stands) or wait longer.
 */
export function refreshBudgetForAnswers(config: IngestLimitsConfig = {}): number {
  return config.refreshBeforeAnswerMs ?? REFRESH_BUDGET_FOR_ANSWERS_MS;
}
