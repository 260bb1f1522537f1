// The human report of `eval <dir>`: an AUC that is undefined (no query, or every query in one
// class) reads as n/a, never "AUC NaN".
import { describe, expect, it } from "vitest";
import { collectionReportText } from "../../src/cli/eval.js";
import { readCranfield } from "../../src/evaluation/cranfield.js";
import { runEvaluation } from "../../src/evaluation/run-evaluation.js";

const fixtures = new URL("../fixtures/eval/smart/", import.meta.url).pathname;

describe("eval's human report", () => {
  it("says n/a for an undefined AUC and a number otherwise", async () => {
    const report = await runEvaluation(await readCranfield(fixtures));
    const undefinedAuc = collectionReportText("tiny", {
      ...report,
      weak: { ...report.weak, auc: Number.NaN },
    });
    expect(undefinedAuc).toContain("AUC n/a (no query or every query in one class)");
    expect(undefinedAuc).not.toContain("NaN");
    const measured = collectionReportText("tiny", { ...report, weak: { ...report.weak, auc: 0.5 } });
    expect(measured).toContain("AUC 0.500");
  });
});
