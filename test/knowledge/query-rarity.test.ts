// The query-rarity term of the shipped calibration: how rare the query's rarest word is in the
// collection moves every hit's relevance alike (so the weak line, never the order), and a bot's own
// calibration is taken as fitted.
import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { idf } from "../../src/knowledge/index/bm25.js";
import type { QueryTermStats } from "../../src/knowledge/index/lexical-index.js";
import type { IndexableDocument } from "../../src/knowledge/ranking-core/index.js";
import {
  type CalibrationModel,
  DEFAULT_CALIBRATION,
  QUERY_RARITY_SHIFT,
  queryRarityShift,
} from "../../src/knowledge/relevance.js";
import { queryRarity } from "../../src/knowledge/relevance-features.js";

const stat = (term: string, units: number, documentFrequency: number): QueryTermStats => ({
  term,
  termId: documentFrequency > 0 ? 0 : -1,
  queryFrequency: 1,
  documentFrequency,
  idf: idf(units, documentFrequency),
});

describe("queryRarity", () => {
  it("is the rarest word's idf over a one-section word's", () => {
    expect(queryRarity([stat("common", 100, 60), stat("once", 100, 1)], 100)).toBe(1);
    expect(queryRarity([stat("common", 100, 60), stat("some", 100, 10)], 100)).toBeCloseTo(
      idf(100, 10) / idf(100, 1),
      12,
    );
  });

  it("reads a word no section holds above 1, and a query of common words far below", () => {
    expect(queryRarity([stat("common", 100, 60), stat("nowhere", 100, 0)], 100)).toBeGreaterThan(1);
    expect(queryRarity([stat("common", 100, 60), stat("the", 100, 90)], 100)).toBeLessThan(0.3);
  });

  it("is 0 for a query with no terms", () => {
    expect(queryRarity([], 100)).toBe(0);
  });
});

describe("queryRarityShift", () => {
  it("raises a query of common words and lowers one naming a word the collection lacks", () => {
    expect(queryRarityShift(DEFAULT_CALIBRATION, 0.5)).toBeCloseTo(
      QUERY_RARITY_SHIFT.weight * (QUERY_RARITY_SHIFT.reference - 0.5),
      12,
    );
    expect(queryRarityShift(DEFAULT_CALIBRATION, 0.5)).toBeGreaterThan(0);
    expect(queryRarityShift(DEFAULT_CALIBRATION, 1.1)).toBeLessThan(0);
  });

  it("leaves a bot's own calibration as fitted", () => {
    const own: CalibrationModel = { ...DEFAULT_CALIBRATION, weights: [...DEFAULT_CALIBRATION.weights] };
    expect(queryRarityShift(own, 0.5)).toBe(0);
    expect(queryRarityShift(own, 1.1)).toBe(0);
  });
});

const doc = (id: string, content: string): IndexableDocument => ({
  id,
  title: id,
  sections: [{ headingPath: [id], content }],
});
// Every page holds "server"; one page each holds "nginx", "squid", "bind9".
const pages = [
  doc("nginx.html", "server nginx proxy upstream keepalive"),
  doc("squid.html", "server squid proxy cache acl"),
  doc("bind.html", "server bind9 zone reload"),
  doc("mail.html", "server postfix queue relay"),
];

describe("a search's relevance under the shipped calibration", () => {
  const shipped = KnowledgeEngine.fromDocuments({ docs: pages }, { language: "en" });
  const own = KnowledgeEngine.fromDocuments({ docs: pages }, { language: "en" });
  own.useCalibration({ ...DEFAULT_CALIBRATION, weights: [...DEFAULT_CALIBRATION.weights] });
  const logit = (p: number) => Math.log(p / (1 - p));

  it("ranks as the unshifted model does, every hit moved by the query's rarity term", () => {
    for (const query of ["server proxy", "nginx upstream", "proxy kubernetes"]) {
      const with_ = shipped.searchSync({ query });
      const without = own.searchSync({ query });
      expect(with_.results.map((h) => h.id)).toEqual(without.results.map((h) => h.id));
      expect(with_.results.length).toBeGreaterThan(0);
      const index = shipped.collectionIndex("docs")!;
      const stats = index.lexical.queryStats(index.analyzer.analyze(query));
      const shift = queryRarityShift(DEFAULT_CALIBRATION, queryRarity(stats, index.lexical.unitCount));
      for (const [i, hit] of with_.results.entries()) {
        // Both relevances are rounded to 3 decimals.
        expect(logit(hit.relevance)).toBeCloseTo(logit(without.results[i]!.relevance) + shift, 1);
      }
    }
  });

  it("reads a query of common words as more relevant, and one naming a word no page holds as less", () => {
    const common = "server proxy";
    expect(shipped.searchSync({ query: common }).bestScore).toBeGreaterThan(
      own.searchSync({ query: common }).bestScore,
    );
    const absent = "proxy kubernetes";
    expect(shipped.searchSync({ query: absent }).bestScore).toBeLessThan(
      own.searchSync({ query: absent }).bestScore,
    );
  });
});
