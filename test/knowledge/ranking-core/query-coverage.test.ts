import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import type { IndexableDocument } from "../../../src/knowledge/index/collection-index.js";

const doc = (id: string, title: string, content: string): IndexableDocument => ({
  id,
  title,
  sections: [{ headingPath: [title], content }],
});

const engine = KnowledgeEngine.fromDocuments({
  guide: [
    doc("zipfile.md", "Archives", "Create a zip archive of a folder and extract a zip archive again."),
    doc("logging.md", "Logging", "Rotate log files every night and keep a week of logs."),
    doc("cron.md", "Scheduled jobs", "Run a job every night at two with cron."),
    doc("users.md", "Accounts", "Create accounts and set a password for each of them."),
  ],
});

describe("the response's query coverage (what auto's ask rule reads beside relevance)", () => {
  it("a query whose words the top hit's document holds: every key term there, nothing unmatched", async () => {
    const r = await engine.search({ query: "extract zip archive" });
    expect(r.results[0]?.id).toBe("zipfile.md");
    expect(r.queryCoverage).toEqual({ keyTermsInTopHit: 1, unmatchedShare: 0, ownFunctionWords: 0 });
  });

  it("a word no document holds is unmatched, and a key term the top hit lacks", async () => {
    const r = await engine.search({ query: "rotate logs kubernetes" });
    expect(r.results[0]?.id).toBe("logging.md");
    const coverage = r.queryCoverage!;
    // "kubernetes" is in no document: the rarest term of the three, a third of them or more by weight.
    expect(coverage.unmatchedShare).toBeGreaterThan(1 / 3);
    expect(coverage.unmatchedShare).toBeLessThan(1);
    expect(coverage.keyTermsInTopHit).toBeCloseTo(1 - coverage.unmatchedShare, 10);
  });

  it("a key term held by another document than the top hit's counts as missing from the top hit", async () => {
    // Three terms, each in one document: two in the logging page, "password" only in the accounts page.
    const r = await engine.search({ query: "rotate log password" });
    expect(r.results[0]?.id).toBe("logging.md");
    expect(r.queryCoverage!.unmatchedShare).toBe(0);
    expect(r.queryCoverage!.keyTermsInTopHit).toBeCloseTo(2 / 3, 10);
  });

  it("a query without terms reports none", async () => {
    const r = await engine.search({ query: "the and of" });
    expect(r.queryCoverage).toBeUndefined();
  });

  it("counts the query's function words of the collection's language that are not English's", async () => {
    const german = KnowledgeEngine.fromDocuments(
      {
        handbuch: [
          doc("seiten.md", "Seitenzahlen", "Seitenzahlen fügen Sie in die Fußzeile jeder Seite ein."),
          doc("tabellen.md", "Tabellen", "Eine Tabelle speichern Sie als PDF."),
        ],
      },
      { language: "de" },
    );
    // "wie", "ich", "die", "ein" are German stopwords; so is "in", which English's list holds too.
    const asked = await german.search({ query: "wie füge ich Seitenzahlen in die Fußzeile ein" });
    expect(asked.queryCoverage?.ownFunctionWords).toBe(4);
    const english = await german.search({ query: "how do I save a table as PDF" });
    expect(english.results).not.toHaveLength(0);
    expect(english.queryCoverage?.ownFunctionWords).toBe(0);
    // Over an English collection the count is never taken.
    const r = await engine.search({ query: "how do I rotate the log files every night" });
    expect(r.queryCoverage?.ownFunctionWords).toBe(0);
  });
});
