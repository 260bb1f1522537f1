import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readBeir } from "../../src/evaluation/beir.js";
import { readCranfield } from "../../src/evaluation/cranfield.js";
import type { EvalDataset } from "../../src/evaluation/dataset.js";

// The shared labelled data lives beside the repository (../shared/data), not in it.
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const dataDir = path.resolve(repoRoot, "../shared/data");
const haveData =
  existsSync(path.join(dataDir, "cranfield", "cranqrel")) &&
  existsSync(path.join(dataDir, "cranfield-beir", "corpus.jsonl"));
const fixtures = fileURLToPath(new URL("../fixtures/eval/", import.meta.url));

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

function expectSameCollection(a: EvalDataset, b: EvalDataset): void {
  expect(a.docs.map((d) => d.id)).toEqual(b.docs.map((d) => d.id));
  expect(a.docs.map((d) => squash(d.title))).toEqual(b.docs.map((d) => squash(d.title)));
  expect(a.docs.map((d) => squash(d.text))).toEqual(b.docs.map((d) => squash(d.text)));
  expect(a.queries.map((q) => [q.id, squash(q.text)])).toEqual(b.queries.map((q) => [q.id, squash(q.text)]));
  expect(a.qrels).toEqual(b.qrels);
}

describe("Cranfield: SMART and BEIR layouts load to the same collection", () => {
  it("on the small fixtures", async () => {
    const smart = await readCranfield(path.join(fixtures, "smart"));
    const beir = await readBeir(path.join(fixtures, "beir"));
    expectSameCollection(smart, beir);
  });

  it.skipIf(!haveData)(
    `on the real collection (skipped when ${path.relative(repoRoot, dataDir)}/cranfield{,-beir} is absent)`,
    async () => {
      const smart = await readCranfield(path.join(dataDir, "cranfield"));
      const beir = await readBeir(path.join(dataDir, "cranfield-beir"));
      expect(smart.docs).toHaveLength(1400);
      expect(smart.queries).toHaveLength(225);
      expect(smart.stats).toEqual({
        queriesRead: 225,
        unjudgedQueriesDropped: 0,
        relevantJudgments: 1612,
        nonRelevantJudgments: 225,
        judgmentsForUnknownQueries: 0,
        judgmentsForUnknownDocs: 0,
      });
      expect(smart.qrels.get("1")?.get("184")).toBe(3);
      expect(smart.docs[0]?.title).toBe(
        "experimental investigation of the aerodynamics of a wing in a slipstream .",
      );
      expect(smart.queries[1]?.text).toBe(
        "what are the structural and aeroelastic problems associated with flight of high speed aircraft .",
      );
      expectSameCollection(smart, beir);
    },
  );
});
