/**
 * A quick look at the multilingual sets: our default search only (no peers, no eval, one index
 * build), hit@1/5/10 and the weak flag per language, for trying an analysis change in a minute
 * rather than the full suite's many. Not a suite of `npm run bench`; run it directly:
 *
 *   SETS=debian-handbook,lohelp LANGS=de-de,fr npx tsx bench/multilingual/quick.ts
 *
 * THRESHOLDS=0.25,0.3 also prints false alarms / unanswerable flagged at those weak thresholds;
 * DUMP=<file> appends each language's per-question best score and outcome as one JSON line;
 * MODE=tag|en|none|auto sets the collection's `language` as the suite's <P>_LANGUAGE does (tag);
 * MISSES=1 lists the answerable questions with no answer in the top 5. Bot folders go under
 * QUICK_DIR (default: the system's temporary folder), never beside the suite's own.
 */
import { appendFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexDirectory } from "../../src/backends/embedded/open-embedded.js";
import { weakFlagFigures } from "../../src/evaluation/calibration-fit.js";
import { readJudgedQuestions } from "../../src/evaluation/judged-questions.js";
import { HANDBOOK } from "../debian-handbook/set.js";
import { fromEngine } from "../docbots/collections.js";
import { LOHELP } from "../lohelp/languages.js";
import {
  type LanguageMode,
  type MultilingualSet,
  openSetBot,
  questionsFile,
  type SetLanguage,
  setBotDir,
} from "./set.js";

const SETS: readonly MultilingualSet[] = [HANDBOOK, LOHELP];
const sets = (process.env.SETS ?? HANDBOOK.name).split(",").map((name) => {
  const set = SETS.find((s) => s.name === name);
  if (!set) throw new RangeError(`SETS: unknown set "${name}" (${SETS.map((s) => s.name).join(", ")})`);
  return set;
});
const languages = process.env.LANGS?.split(",");
const thresholds = process.env.THRESHOLDS?.split(",").map(Number) ?? [];
const mode = (process.env.MODE ?? "tag") as LanguageMode;
const root = process.env.QUICK_DIR ?? join(tmpdir(), "second-look-quick");
const pct = (x: number | null) =>
  x === null
    ? "  -"
    : Math.round(x * 100)
        .toString()
        .padStart(3);

async function measure(set: MultilingualSet, language: SetLanguage): Promise<void> {
  const dir = await setBotDir(set, language, mode, join(root, `${set.name}-${language.code}-${mode}`));
  await rm(indexDirectory(dir), { recursive: true, force: true });
  const judged = await readJudgedQuestions(questionsFile(set, language.code));
  const opened = await openSetBot(dir);
  try {
    const c = fromEngine(language.code, opened.engine, judged);
    const responses = c.questions.map((q) => opened.engine.searchSync({ query: q.text }));
    const ranks = c.questions.map(
      (q, i) => responses[i]!.results.slice(0, 10).findIndex((h) => q.relevant.has(h.id)) + 1,
    );
    const within = (i: number, k: number) => ranks[i]! > 0 && ranks[i]! <= k;
    const answerable = c.questions.filter((q) => q.answerable).length;
    const hit = (k: number) => c.questions.filter((q, i) => q.answerable && within(i, k)).length / answerable;
    const outcomes = c.questions.map((q, i) => ({
      bestScore: responses[i]!.bestScore,
      answerable: q.answerable,
      answered: q.answerable && within(i, 5),
    }));
    const flag = weakFlagFigures(outcomes);
    const line = `${set.name}\t${language.code}\thit@1 ${pct(hit(1))} hit@5 ${pct(hit(5))} hit@10 ${pct(hit(10))}`;
    process.stdout.write(
      `${line}\tfalse alarms ${pct(flag.falseAlarms)} unanswerable flagged ${pct(flag.unanswerableFlagged)} AUC ${flag.auc?.toFixed(2)}\n`,
    );
    for (const t of thresholds) {
      const f = weakFlagFigures(outcomes, t);
      process.stdout.write(
        `  at ${t}: false alarms ${pct(f.falseAlarms)} unanswerable flagged ${pct(f.unanswerableFlagged)}\n`,
      );
    }
    if (process.env.MISSES) {
      c.questions.forEach((q, i) => {
        if (q.answerable && !within(i, 5)) process.stdout.write(`  miss: ${q.text}\n`);
      });
    }
    if (process.env.DUMP) {
      const row = { set: set.name, code: language.code, tag: language.tag, outcomes };
      appendFileSync(process.env.DUMP, `${JSON.stringify(row)}\n`);
    }
  } finally {
    await opened.close();
  }
}

for (const set of sets) {
  for (const language of set.languages) {
    if (!languages || languages.includes(language.code)) await measure(set, language);
  }
}
