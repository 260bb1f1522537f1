/**
 * The figures a weak-line change touches, per collection, for comparing two checkouts in one run
 * (not a suite of `npm run bench`; run it in each checkout at once, each with its own QUICK_DIR):
 *
 *   QUICK_DIR=/tmp/a SETS=beir,debian-handbook,lohelp OUT=/tmp/a.jsonl npx tsx bench/weak-study/free-path.ts
 *
 * - beir (Cranfield, CISI, CACM): nDCG@10 and a digest of every query's top 100 (a term that
 *   moves every hit alike must leave both unchanged), and the AUC of the best score for "no
 *   relevant hit in the top 10" (the Cranfield acceptance test's figure).
 * - each language of the multilingual sets (LANGS=de-de,fr restricts them): the product's
 *   `eval --compare signal,auto` on the set's bot (collection `language` the set's tag):
 *   false alarms, unanswerable flagged and AUC of the signal grader's weak flag; the signal
 *   pass's characters added on unanswerable questions (median, p90) and "told not covered"
 *   with an answer in the top 5; auto's model calls per 100 searches (its grader is a loopback
 *   server with no recorded reply for these questions, so only its call count is read).
 *
 * The documentation bots with recorded grader replies (pydocs, nodejs-api, the handbook and
 * lohelp in English) are `npm run bench -- rescue`'s, with auto's rescues kept.
 */

import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { readBeir } from "../../src/evaluation/beir.js";
import { toIndexableDocuments } from "../../src/evaluation/eval-documents.js";
import { evaluateRuns, rocAuc } from "../../src/evaluation/metrics.js";
import { HANDBOOK } from "../debian-handbook/set.js";
import { dataDir } from "../docbots/collections.js";
import { evalInProcess } from "../eval-in-process.js";
import { REPLAY_KEY_VARIABLE, replayCorrectiveRetrieval, startGraderReplays } from "../grader-replay.js";
import { LOHELP } from "../lohelp/languages.js";
import { questionsFile, setBotConfig, setBotDir } from "../multilingual/set.js";

const OUT = process.env.OUT ?? join(tmpdir(), "free-path.jsonl");
const SETS = (process.env.SETS ?? "beir,debian-handbook,lohelp").split(",");
const LANGS = process.env.LANGS?.split(",");
const root = process.env.QUICK_DIR ?? join(tmpdir(), "second-look-quick");
const emit = (row: Record<string, unknown>) => {
  appendFileSync(OUT, `${JSON.stringify(row)}\n`);
  process.stderr.write(`${JSON.stringify(row)}\n`);
};

if (SETS.includes("beir")) {
  for (const name of ["cranfield", "cisi", "cacm"]) {
    const dataset = await readBeir(join(dataDir, `${name}-beir`));
    const engine = KnowledgeEngine.fromDocuments({ [name]: toIndexableDocuments(dataset.docs) });
    const runs = new Map<string, string[]>();
    const best: number[] = [];
    const digest = createHash("sha256");
    for (const q of dataset.queries) {
      const response = engine.searchSync({ query: q.text, limit: 100 });
      const ids = response.results.map((h) => h.id);
      runs.set(q.id, ids);
      digest.update(`${q.id}:${ids.join(",")}\n`);
      best.push(response.bestScore);
    }
    const metrics = evaluateRuns(dataset.qrels, runs);
    const judged = dataset.queries.map((q, i) => ({ q, i })).filter(({ q }) => metrics.perQuery.has(q.id));
    // The flag's score is low where it fires: a miss is the positive class for 1 − bestScore.
    const auc = rocAuc(
      judged.map(({ i }) => 1 - best[i]!),
      judged.map(({ q }) => metrics.perQuery.get(q.id)!.miss10),
    );
    emit({ set: "beir", code: name, ndcg10: metrics.ndcg10, aucMiss10: auc, rankings: digest.digest("hex") });
  }
}

for (const set of [HANDBOOK, LOHELP]) {
  if (!SETS.includes(set.name)) continue;
  for (const language of set.languages) {
    if (LANGS && !LANGS.includes(language.code)) continue;
    const dir = await setBotDir(set, language, "tag", join(root, `${set.name}-${language.code}-tag`));
    // No recorded reply matches these questions: auto's grader gets an unusable reply (read as
    // `correct`), so auto asks once per search it asks on and its call count is its asks.
    const replay = await startGraderReplays([]);
    try {
      const config = setBotConfig(set, language, "tag");
      config.correctiveRetrieval = { ...replayCorrectiveRetrieval(replay), retryBudget: 1 };
      await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
      process.env[REPLAY_KEY_VARIABLE] = "replay";
      const report = await evalInProcess(
        [dir, "--questions", questionsFile(set, language.code), "--compare", "signal,auto"],
        { unreliableSettings: ["auto"] },
      );
      const signal = report.settings.find((s) => s.setting === "signal")!;
      const auto = report.settings.find((s) => s.setting === "auto")!;
      emit({
        set: set.name,
        code: language.code,
        hit5: signal.search.hit5,
        falseAlarms: signal.weak.falseAlarms.rate,
        unanswerableFlagged: signal.weak.unanswerableFlagged.rate,
        auc: signal.weak.auc,
        charsAddedMedian: signal.charsAddedOnUnanswerable.median,
        charsAddedP90: signal.charsAddedOnUnanswerable.p90,
        toldNotCoveredAnswerInTop5: signal.toldNotCovered.answerInTop5.rate,
        toldNotCoveredUnanswerable: signal.toldNotCovered.unanswerable.rate,
        autoCallsPer100: auto.modelCallsPer100,
      });
    } finally {
      delete process.env[REPLAY_KEY_VARIABLE];
      await replay.server.close();
    }
  }
}
