// Where the benchmarks' shared data sits, and the error a loader throws when some is absent (the
// bench then skips that collection and names it). Apart from collections.ts so the lohelp bot
// builder can use them without importing the suite that loads lohelp-en through it.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The shared data sits beside the repository; BENCH_DATA_DIR points elsewhere. */
export const dataDir = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"));
/** The sets built and judged in this repository (questions and build scripts; documents are built). */
export const benchDataDir = resolve(repo, "bench/data");

export class MissingData extends Error {}
