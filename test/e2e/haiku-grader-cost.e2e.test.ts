// Acceptance 4 of the grader issue: `second-look eval --json` on Cranfield reports grader calls
// per 100 searches under haiku and auto; the figures are checked against the real orchestrator,
// run on every Cranfield query with a counting grader, so the report cannot drift from it.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { correctToolResult } from "../../src/corrective/correct-tool-result.js";
import type { GradeFn } from "../../src/corrective/llm-grade.js";
import { readCranfield } from "../../src/evaluation/cranfield.js";
import { toIndexableDocuments } from "../../src/evaluation/eval-documents.js";
import type { EvaluationReport } from "../../src/evaluation/run-evaluation.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import type { Grade } from "../../src/types.js";
import { silent } from "../corrective/corrective-fixtures.js";
import { cliOutput } from "../support/run-cli.js";

const dataDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/data/cranfield");
const available = existsSync(resolve(dataDir, "cran.all.1400"));

async function evalJson(): Promise<EvaluationReport> {
  return JSON.parse(
    await cliOutput(["eval", dataDir, "--format", "cranfield", "--json"]),
  ) as EvaluationReport;
}

/** Model calls the real orchestrator makes over every query, with a grader answering `grade`. */
async function orchestratorCalls(
  mode: "haiku" | "auto",
  grade: Grade,
): Promise<{ calls: number; searches: number }> {
  const dataset = await readCranfield(dataDir);
  const engine = KnowledgeEngine.fromDocuments({ eval: toIndexableDocuments(dataset.docs) });
  let calls = 0;
  const counting: GradeFn = async () => {
    calls++;
    return grade;
  };
  for (const query of dataset.queries) {
    const response = engine.searchSync({ query: query.text });
    await correctToolResult(
      {
        toolName: "search_knowledge",
        toolArgs: { query: query.text },
        resultText: renderSearchResponse(response, { brief: false }),
        response,
      },
      {
        backend: engine,
        allowedCollections: engine.collections(),
        grader: mode,
        grade: counting,
        budget: 1,
        log: silent,
      },
    );
  }
  return { calls, searches: dataset.queries.length };
}

describe.skipIf(!available)(
  "grader cost on Cranfield (skipped when ../shared/data/cranfield is absent)",
  () => {
    it("eval --json reports grader calls per 100 searches that the orchestrator itself makes", async () => {
      const report = await evalJson();
      expect(report.queries).toBe(225);

      // haiku: one call per search, even when the verdict sends it to a re-query.
      const haiku = await orchestratorCalls("haiku", { verdict: "insufficient", reason: "weak" });
      expect(report.grader.haikuCallsPer100).toBe(Math.round((1000 * haiku.calls) / haiku.searches) / 10);

      // auto: only where the signal is borderline.
      const auto = await orchestratorCalls("auto", { verdict: "correct", reason: "fine" });
      expect(report.grader.autoCallsPer100).toBe(Math.round((1000 * auto.calls) / auto.searches) / 10);
      expect(report.grader.autoCallsPer100).toBeLessThan(report.grader.haikuCallsPer100);
    }, 120_000);
  },
);
