// `eval --compare …,auto,haiku`: how many of haiku's rescues auto keeps, and at what model cost,
// counted from the per-question outcomes of the two settings.
import { describe, expect, it } from "vitest";
import { botReportText } from "../../src/cli/eval.js";
import { type QuestionOutcome, summarizeOutcomes } from "../../src/evaluation/bot-metrics.js";
import {
  autoKeepsHaiku,
  type BotEvalReport,
  type CorrectiveSetting,
  type SettingReport,
} from "../../src/evaluation/evaluate-bot.js";

/** An outcome: `searchRank` 0 = no answer among the search's hits; `finalRank` > 0 = one in the final text. */
function outcome(id: string, searchRank: number, finalRank: number, modelCalls: number): QuestionOutcome {
  return {
    id,
    text: id,
    kind: "answerable",
    relevant: ["a.md"],
    searchRank,
    finalRank,
    searchIds: [],
    searchRelevance: [],
    finalIds: [],
    bestScore: 0.3,
    flagged: finalRank > searchRank,
    toldNotCovered: false,
    originalChars: 100,
    finalChars: 100,
    modelCalls,
    graderFailures: 0,
    ms: 1,
  };
}

function setting(name: CorrectiveSetting, outcomes: QuestionOutcome[]): SettingReport {
  return {
    setting: name,
    ...summarizeOutcomes(outcomes),
    reliable: true,
    problem: null,
    perQuestion: outcomes,
  };
}

// haiku rescues q1, q2 and q3 (asking on all four); auto asks on q1 and q4 and rescues q1 only.
const haiku = setting("haiku", [
  outcome("q1", 0, 2, 1),
  outcome("q2", 0, 1, 1),
  outcome("q3", 0, 3, 1),
  outcome("q4", 1, 1, 1),
]);
const auto = setting("auto", [
  outcome("q1", 0, 2, 1),
  outcome("q2", 0, 0, 0),
  outcome("q3", 0, 0, 0),
  outcome("q4", 1, 1, 1),
]);
const signal = setting("signal", [
  outcome("q1", 0, 0, 0),
  outcome("q2", 0, 0, 0),
  outcome("q3", 0, 0, 0),
  outcome("q4", 1, 1, 0),
]);

describe("haiku rescues kept by auto", () => {
  it("counts the misses haiku rescues and how many auto rescues too, beside auto's calls per 100 searches", () => {
    expect(autoKeepsHaiku([signal, auto, haiku])).toEqual({
      haikuRescued: 3,
      autoKept: 1,
      autoCallsPer100: 50,
    });
  });

  it("is null unless both auto and haiku were compared", () => {
    expect(autoKeepsHaiku([signal, haiku])).toBeNull();
    expect(autoKeepsHaiku([signal, auto])).toBeNull();
  });

  it("is printed under eval's compare table", () => {
    const report: BotEvalReport = {
      bot: "b",
      questionsFile: "q.jsonl",
      documents: 3,
      indexMs: 1,
      unmatchedRelevant: [],
      settings: [signal, auto, haiku],
      autoKeepsHaiku: autoKeepsHaiku([signal, auto, haiku]),
    };
    expect(botReportText(report)).toContain(
      "haiku rescues kept by auto: 1 of 3, at 50 model calls per 100 searches",
    );
    expect(botReportText({ ...report, settings: [signal], autoKeepsHaiku: null })).not.toContain(
      "kept by auto",
    );
  });
});
