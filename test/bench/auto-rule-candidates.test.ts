import { describe, expect, it } from "vitest";
import { candidateFeatures } from "../../bench/auto-rule/candidates.js";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import type { IndexableDocument } from "../../src/knowledge/index/collection-index.js";

const page = (id: string, title: string, ...contents: string[]): IndexableDocument => ({
  id,
  title,
  sections: contents.map((content, i) => ({ headingPath: [title, `part ${i + 1}`], content })),
});

// The three key terms on one page, but never together in one section.
const split = page(
  "split.md",
  "Split",
  "rotate the journal nightly",
  "compress the journal weekly",
  "archive to tape",
);
const others = [
  page("cron.md", "Scheduled jobs", "run a job every night with cron"),
  page("users.md", "Accounts", "create accounts and set a password"),
  page("mail.md", "Mail", "deliver mail to local users"),
];
const engine = KnowledgeEngine.fromDocuments({ guide: [split, ...others] });

describe("candidate features for auto's ask rule (bench/auto-rule/candidates.ts)", () => {
  it("reads the key terms in the top hit's best section apart from its whole page", async () => {
    const query = "rotate compress archive";
    const response = await engine.search({ query });
    expect(response.results[0]!.id).toBe("split.md");
    const features = candidateFeatures(engine, query, response)!;
    expect(features.terms).toBe(3);
    expect(features.queryTermsInTopHit).toBe(1);
    expect(features.keyTermsInTop5).toBe(1);
    // Each section holds one of three equally rare key terms.
    expect(features.keyTermsInTopSection).toBeCloseTo(1 / 3, 10);
    expect(features.fullKeyHitsBelowTop).toBe(0);
  });

  it("counts the hits below the top that hold every key term", async () => {
    const whole = page("whole.md", "Whole", "rotate compress archive the journal in one go");
    const both = KnowledgeEngine.fromDocuments({ guide: [split, whole, ...others] });
    const query = "rotate compress archive";
    const response = await both.search({ query });
    expect(
      response.results
        .map((h) => h.id)
        .slice(0, 2)
        .sort(),
    ).toEqual(["split.md", "whole.md"]);
    expect(candidateFeatures(both, query, response)!.fullKeyHitsBelowTop).toBe(1);
  });

  it("a query word no page holds is missing from the top hit's share of the query", async () => {
    const query = "rotate journal kubernetes";
    const response = await engine.search({ query });
    const features = candidateFeatures(engine, query, response)!;
    expect(features.queryTermsInTopHit).toBeGreaterThan(0);
    expect(features.queryTermsInTopHit).toBeLessThan(1);
    expect(features.fullKeyHitsBelowTop).toBe(0);
  });

  it("reports nothing for a search without hits", async () => {
    const query = "kubernetes helm";
    const response = await engine.search({ query });
    expect(response.results).toHaveLength(0);
    expect(candidateFeatures(engine, query, response)).toBeUndefined();
  });
});
