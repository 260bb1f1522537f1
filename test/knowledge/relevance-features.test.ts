// The calibration's features are scale-free: keyTermScore does not shrink as a query grows.
import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../src/knowledge/analysis/registry.js";
import { analyzeDocument, CollectionIndex } from "../../src/knowledge/index/collection-index.js";
import { rankCollection } from "../../src/knowledge/index/ranker.js";
import { relevanceFeatures } from "../../src/knowledge/relevance-features.js";

const analyze = (text: string) => analyzerFor("en").analyze(text);

const index = new CollectionIndex(
  "kb",
  [
    ["kettle", "Descale the kettle with vinegar every month."],
    ["bicycle", "Pump the bicycle tyres every week."],
    ["violin", "Rosin the violin bow before playing."],
  ].map(([id, text]) =>
    analyzeDocument({ id: id!, title: id!, sections: [{ headingPath: [id!], content: text! }] }),
  ),
);
const featuresOf = (query: string) =>
  relevanceFeatures(rankCollection(index, analyze(query), { rerank: true, limit: 10 }));

describe("relevanceFeatures", () => {
  it("gives every hit its rank and, up to three query terms, keyTermScore = normalizedScore", () => {
    const features = featuresOf("descale kettle vinegar");
    expect(features.map((f) => f.rank)).toEqual(features.map((_, i) => i));
    expect(features[0]!.keyTermScore).toBeCloseTo(features[0]!.normalizedScore, 10);
  });

  it("measures against the rarest terms: words the collection never saw weigh in full", () => {
    // An unanswerable question's product name is its rarest term, so it keeps the score low;
    // words the collection knows in many sections do not dilute a long query's key terms.
    const short = featuresOf("descale kettle vinegar")[0]!;
    const unknownWords = featuresOf("descale kettle vinegar django flask celery")[0]!;
    expect(unknownWords.keyTermScore).toBeLessThan(short.keyTermScore * 0.5);
    expect(unknownWords.keyTermScore).toBeGreaterThanOrEqual(unknownWords.normalizedScore);
  });

  it("has no hits, hence no features, when nothing matches", () => {
    expect(featuresOf("submarine")).toEqual([]);
  });
});
