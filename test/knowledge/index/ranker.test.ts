// The ranker's document order: feedback reorders the pages the query found and never pushes one
// of the leading ones out, where pages have several sections.
import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import { analyzeDocument, CollectionIndex } from "../../../src/knowledge/index/collection-index.js";
import { keepLeading, type RankedDocument, rankCollection } from "../../../src/knowledge/index/ranker.js";

const analyze = (text: string) => analyzerFor("en").analyze(text);
const ranked = (document: number): RankedDocument => ({ document, score: 0, units: [], normalizedScore: 0 });
const ids = (documents: readonly RankedDocument[]) => documents.map((d) => d.document);

describe("keepLeading", () => {
  it("puts the plain ranking's leading documents first, in the reordered ranking's order", () => {
    const plain = [1, 2, 3, 4, 5].map(ranked);
    const reordered = [5, 3, 9, 1, 2, 4].map(ranked);
    expect(ids(keepLeading(plain, reordered, 3))).toEqual([3, 1, 2, 5, 9, 4]);
  });

  it("keeps a leading document the reordered ranking lacks, after the ones it has", () => {
    const plain = [1, 2, 3].map(ranked);
    const reordered = [2, 7, 8].map(ranked);
    expect(ids(keepLeading(plain, reordered, 2))).toEqual([2, 1, 7, 8]);
  });
});

/**
 * Pages of two sections. "descale kettle" is answered by pages of one vocabulary (vinegar, citric
 * acid, limescale), which the feedback pass learns; six appliance pages name the kettle in a short
 * sentence, and six cleaning pages name it once among much of that vocabulary without being about
 * descaling. Without the rule, feedback pushes the last appliance page out of the top ten.
 */
function kettleCollection(): CollectionIndex {
  const pages: [string, string, string][] = [];
  for (let i = 0; i < 4; i++) {
    pages.push([
      `descale-${i}`,
      "Descale the kettle with vinegar or citric acid; limescale dissolves overnight.",
      "Rinse the kettle twice so no vinegar taste or citric acid stays behind.",
    ]);
  }
  for (let i = 0; i < 6; i++) {
    pages.push([
      `appliance-${i}`,
      `The kettle ${"switch lamp cable plug ".repeat(i + 1)}`,
      "Unplug appliances before cleaning them.",
    ]);
  }
  for (let i = 0; i < 6; i++) {
    pages.push([
      `cleaning-${i}`,
      `The kettle aside, ${"vinegar citric acid limescale bathroom tiles shower glass ".repeat(3)}`,
      "Vinegar, citric acid and limescale remover shine bathroom taps.",
    ]);
  }
  return new CollectionIndex(
    "kb",
    pages.map(([id, first, second]) =>
      analyzeDocument({
        id,
        title: id,
        sections: [
          { headingPath: [id, "one"], content: first },
          { headingPath: [id, "two"], content: second },
        ],
      }),
    ),
  );
}

describe("rankCollection on pages of several sections", () => {
  const index = kettleCollection();
  const rank = (rerank: boolean) => rankCollection(index, analyze("descale kettle"), { rerank, limit: 20 });

  it("keeps every page the query found in its top ten there, although feedback ranks one lower", () => {
    const plain = rank(false).documents;
    const withFeedback = rank(true);
    const topTen = (documents: RankedDocument[]) => new Set(ids(documents.slice(0, 10)));
    expect(withFeedback.feedback.map((t) => t.term)).toContain("vinegar");
    expect(topTen(withFeedback.documents)).toEqual(topTen(plain));
  });

  it("names every page it weighed, with and without feedback", () => {
    const ranking = rank(true);
    expect(ranking.weighedDocuments.length).toBe(new Set(ranking.weighedDocuments).size);
    for (const document of ids(ranking.documents)) expect(ranking.weighedDocuments).toContain(document);
  });
});
