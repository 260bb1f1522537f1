// The feature table auto's ask rule is fitted on (corrective/auto-ask-rule.ts): per judged
// question of a bot, what the rule reads of the first search (the product's own reading of the
// response, signal-grader.ts responseEvidence, and the query's language against the documents') and
// what the replayed model grader and the free signal make of the search (rescued or not).
import { writeFile } from "node:fs/promises";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { loadBotFromDir } from "../../src/bots/discovery.js";
import { openBotBackend } from "../../src/connectors/open-bot-backend.js";
import { responseEvidence } from "../../src/corrective/signal-grader.js";
import type { SettingReport } from "../../src/evaluation/evaluate-bot.js";
import { readJudgedQuestions } from "../../src/evaluation/judged-questions.js";
import { languageDetector } from "../../src/knowledge/analysis/detect.js";
import { isLanguageMismatch } from "../../src/weakness.js";
import { evalInProcess } from "../eval-in-process.js";
import { type CandidateFeatures, candidateFeatures } from "./candidates.js";

export interface FeatureRow {
  bot: string;
  id: string;
  kind: string;
  weak: boolean;
  best: number;
  second: number;
  fifth: number;
  keyTermsInTopHit: number;
  unmatchedShare: number;
  mismatch: boolean;
  /** Features the product does not read, tried by bench/auto-rule/study.ts (absent: not the embedded engine). */
  candidates?: CandidateFeatures;
  /** Rescued (no answer among the search's hits, one in the final text) by each setting; null when not run. */
  signalRescued: boolean | null;
  haikuRescued: boolean | null;
  autoRescued: boolean | null;
  autoCalls: number | null;
}

const rescuedBy = (s: SettingReport | undefined, id: string): boolean | null => {
  const o = s?.perQuestion.find((q) => q.id === id);
  return o ? o.kind === "answerable" && o.searchRank === 0 && o.finalRank > 0 : null;
};

/** The bot at `dir` (its config grading through a replay) judged on `questionsFile` with `compare`. */
export async function featureTable(
  bot: string,
  dir: string,
  questionsFile: string,
  compare: string,
  documentLanguage = "en",
): Promise<FeatureRow[]> {
  const report = await evalInProcess([dir, "--questions", questionsFile, "--compare", compare], {
    unreliableSettings: ["auto", "haiku"],
  });
  const setting = (name: string) => report.settings.find((s) => s.setting === name);
  const questions = await readJudgedQuestions(questionsFile);
  const opened = await openBotBackend(await loadBotFromDir(dir));
  const guess = await languageDetector();
  try {
    const rows: FeatureRow[] = [];
    for (const q of questions) {
      const response = await opened.backend.search({ query: q.text });
      const evidence = responseEvidence(response);
      const candidates =
        opened.backend instanceof KnowledgeEngine
          ? candidateFeatures(opened.backend, q.text, response)
          : undefined;
      rows.push({
        bot,
        id: q.id,
        kind: q.kind,
        weak: evidence.weak,
        best: evidence.bestRelevance ?? 0,
        second: evidence.secondRelevance ?? 0,
        fifth: evidence.fifthRelevance ?? 0,
        keyTermsInTopHit: evidence.keyTermsInTopHit ?? 0,
        unmatchedShare: evidence.unmatchedShare ?? 0,
        mismatch: isLanguageMismatch(q.text, guess(q.text), [documentLanguage]),
        ...(candidates ? { candidates } : {}),
        signalRescued: rescuedBy(setting("signal"), q.id),
        haikuRescued: rescuedBy(setting("haiku"), q.id),
        autoRescued: rescuedBy(setting("auto"), q.id),
        autoCalls: setting("auto")?.perQuestion.find((o) => o.id === q.id)?.modelCalls ?? null,
      });
    }
    return rows;
  } finally {
    await opened.close();
  }
}

export async function saveTable(file: string, rows: readonly FeatureRow[]): Promise<void> {
  await writeFile(file, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
}

/** What a rule that asks the model costs and keeps on one bot's searches. */
export interface AskOutcome {
  /** Searches asked about, per 100. */
  per100: number;
  /** haiku's rescues kept: asked about, or rescued by the signal grader alone. */
  kept: number;
  rescues: number;
}

export function askOutcome(ask: (r: FeatureRow) => boolean, rows: readonly FeatureRow[]): AskOutcome {
  let asked = 0;
  let kept = 0;
  let rescues = 0;
  for (const r of rows) {
    const asks = ask(r);
    if (asks) asked++;
    if (r.haikuRescued) {
      rescues++;
      if (asks || r.signalRescued) kept++;
    }
  }
  return { per100: rows.length ? (100 * asked) / rows.length : 0, kept, rescues };
}
