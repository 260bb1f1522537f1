/**
 * lohelp: LibreOffice's help in eleven languages, the same 80 judged questions in each
 * (../shared/data/lohelp/README.md), run by the multilingual documentation suite
 * (bench/multilingual/suite.ts): our default search and first pass beside English-only and
 * language-aware peers, the weak flag, the signal grader's rescue, speed per MB. The English-only
 * engine is the committed results/lohelp-before.json.
 *
 * LOHELP_LANGS=de,ja restricts the languages; LOHELP_LANGUAGE=none|tag|auto|en sets the
 * collection's `language`; BENCH_LOHELP_DIR=<folder of <lang>/docs> reuses prebuilt pages (else
 * build-bot.sh builds them into a cache folder, BENCH_LOHELP_CACHE).
 */
import { LOHELP } from "./lohelp/languages.js";
import { runMultilingual } from "./multilingual/suite.js";

export const name = "lohelp";
/** One language takes a few minutes on a shared 2-core machine; eleven run one after the other. */
export const timeoutMs = 150 * 60_000;

export const run = () => runMultilingual(LOHELP);
