/**
 * debian-handbook: the Debian Administrator's Handbook in nine languages, the same 83 judged
 * questions in each (bench/data/handbook/README.md), run by the multilingual documentation suite
 * (bench/multilingual/suite.ts) as lohelp is: our default search and first pass beside
 * English-only and language-aware peers, the English-only engine (`language: "en"`) on the same
 * pages, the weak flag, the signal grader's rescue, speed per MB.
 *
 * HANDBOOK_LANGS=nb-no,fr-fr restricts the languages; HANDBOOK_LANGUAGE=none|tag|auto|en sets the
 * collection's `language`; BENCH_HANDBOOK_DIR=<folder of <lang>/docs> reuses prebuilt pages (else
 * bench/data/handbook/build-bot.sh builds them into a cache folder, BENCH_HANDBOOK_CACHE).
 */
import { HANDBOOK } from "./debian-handbook/set.js";
import { runMultilingual } from "./multilingual/suite.js";

export const name = "debian-handbook";
/** A language takes a minute or two on a shared 2-core machine; nine run one after the other. */
export const timeoutMs = 90 * 60_000;

export const run = () => runMultilingual(HANDBOOK);
