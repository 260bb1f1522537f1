// The shipped calibration's per-analyzer shift: a German collection's hits read as relevant as an
// English one's would on the same evidence, and a bot's own calibration is taken as fitted.
import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import type { IndexableDocument } from "../../src/knowledge/ranking-core/index.js";
import {
  ANALYZER_RELEVANCE_SHIFT,
  type CalibrationModel,
  calibratedRelevance,
  DEFAULT_CALIBRATION,
  relevanceShift,
} from "../../src/knowledge/relevance.js";
import { isWeak } from "../../src/weakness.js";

const doc = (id: string, content: string): IndexableDocument => ({
  id,
  title: id,
  sections: [{ headingPath: [id], content }],
});
// Words no analyzer stems or drops differently: the same features in German and in English.
const pages = [
  doc("nginx.html", "nginx proxy_pass upstream keepalive"),
  doc("squid.html", "squid acl http_access deny"),
  doc("bind.html", "bind9 zone named rndc reload"),
];
const query = "nginx upstream squid rndc";

describe("relevanceShift", () => {
  it("shifts German and Spanish by the log-odds between the weak threshold chosen on both sets and 0.25", () => {
    const logit = (p: number) => Math.log(p / (1 - p));
    expect(ANALYZER_RELEVANCE_SHIFT.de).toBeCloseTo(logit(0.25) - logit(0.21), 10);
    expect(relevanceShift(DEFAULT_CALIBRATION, "de")).toBe(ANALYZER_RELEVANCE_SHIFT.de);
    expect(relevanceShift(DEFAULT_CALIBRATION, "en")).toBe(0);
    expect(relevanceShift(DEFAULT_CALIBRATION, "fr")).toBe(0);
    // Spanish (es-2 indexes its stopwords, so unanswerable questions score higher) is lowered.
    expect(ANALYZER_RELEVANCE_SHIFT.es).toBeCloseTo(logit(0.25) - logit(0.27), 10);
    expect(relevanceShift(DEFAULT_CALIBRATION, "es")).toBeLessThan(0);
  });

  it("leaves a bot's own calibration unshifted", () => {
    const own: CalibrationModel = { ...DEFAULT_CALIBRATION, weights: [...DEFAULT_CALIBRATION.weights] };
    expect(relevanceShift(own, "de")).toBe(0);
  });

  it("moves a calibrated relevance of 0.21 to 0.25, the weak threshold", () => {
    const model: CalibrationModel = { features: [], weights: [], bias: Math.log(0.21 / 0.79) };
    const features = { normalizedScore: 0, rank: 0, keyTermScore: 0 };
    expect(calibratedRelevance(features, model)).toBe(0.21);
    expect(calibratedRelevance(features, model, ANALYZER_RELEVANCE_SHIFT.de)).toBe(0.25);
  });
});

describe("a German collection's relevance", () => {
  const english = KnowledgeEngine.fromDocuments({ docs: pages }, { language: "en" });
  const german = KnowledgeEngine.fromDocuments({ docs: pages }, { language: "de" });

  it("ranks as English does, each hit's relevance raised by the German shift", () => {
    const en = english.searchSync({ query });
    const de = german.searchSync({ query });
    expect(de.results.map((h) => h.id)).toEqual(en.results.map((h) => h.id));
    expect(de.results.length).toBeGreaterThan(0);
    for (const [i, hit] of de.results.entries()) {
      const p = en.results[i]!.relevance;
      const shifted = 1 / (1 + Math.exp(-(Math.log(p / (1 - p)) + ANALYZER_RELEVANCE_SHIFT.de!)));
      expect(hit.relevance).toBeGreaterThan(p);
      // The English relevance is rounded to 3 decimals before it is shifted back here.
      expect(hit.relevance).toBeCloseTo(shifted, 2);
    }
  });

  it("is weak exactly when it would be weak in English at the lower threshold", () => {
    const de = german.searchSync({ query: "nginx" });
    const en = english.searchSync({ query: "nginx" });
    expect(isWeak(de)).toBe(en.bestScore < 0.21);
  });
});
