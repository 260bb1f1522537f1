// A query in another language than the documents it searched (src/weakness.ts
// isLanguageMismatch, the orchestrator's first reading): the signal grades it weak with a reason
// naming both languages and tells the model, in one note, to search in the documents' language;
// `auto` asks the model about it even when the search scored high; the model grader is told the
// documents' language; a query in the documents' own language changes nothing.
import { describe, expect, it } from "vitest";
import type { CorrectiveLanguages } from "../../src/corrective/corrective-pass.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { LANGUAGE_NOTE_START } from "../../src/knowledge-tool/result-text.js";
import type { QueryLanguageGuess } from "../../src/weakness.js";
import { hit, response, run, scriptedGrader, stubBackend } from "./corrective-fixtures.js";

const GERMAN_QUERY = "Wie füge ich Seitenzahlen in die Fußzeile ein";
const ENGLISH_QUERY = "How do I insert page numbers in the footer";

/** A detector that reads German in GERMAN_QUERY and English elsewhere (the real one is tested in test/knowledge). */
const guess = (query: string): QueryLanguageGuess =>
  query === GERMAN_QUERY
    ? { tag: "de", name: "German", reliable: true, scores: { de: 0.8, en: 0.3 } }
    : { tag: "en", name: "English", reliable: true, scores: { en: 0.8, de: 0.3 } };

const languages: CorrectiveLanguages = {
  collections: { docs: { tags: ["en"], name: "English" } },
  guess,
};

/** A confident result: the signal alone would leave it alone. */
function confident(query: string) {
  const original = response(query, [
    hit("docs", "footer.html", "Footers", 0.9, "Insert - Header and Footer"),
  ]);
  return { original, text: renderSearchResponse(original, { brief: false }) };
}

/** The orchestrator on a confident result for `query`, over the English "docs" collection. */
function correct(query: string, overrides: Partial<Parameters<typeof run>[0]> = {}) {
  const { original, text } = confident(query);
  return {
    text,
    outcome: run({
      backend: backend(),
      originalQuery: query,
      question: query,
      originalText: text,
      originalResponse: original,
      allowedCollections: ["docs"],
      languages,
      ...overrides,
    }),
  };
}

const backend = () =>
  stubBackend(
    (request) => response(request.query, [hit("docs", "page-numbers.html", "Page Numbers", 0.85)]),
    ["docs"],
  );

describe("a query in another language than the documents", () => {
  it("signal: weak, with a reason naming both languages, and a note telling the model to search in English", async () => {
    const { text, outcome: pending } = correct(GERMAN_QUERY, { grader: "signal" });
    const outcome = await pending;
    expect(outcome.metadata.verdicts[0]).toBe("insufficient");
    expect(outcome.metadata.reasons[0]).toBe(
      "the query is in German, but the documents searched are in English",
    );
    expect(outcome.metadata.languageMismatch).toEqual({ query: "de", documents: ["en"] });
    expect(outcome.changed).toBe(true);
    expect(outcome.text.startsWith(text.trimEnd())).toBe(true);
    expect(outcome.text).toContain(
      `${LANGUAGE_NOTE_START}the query is in German, but the documents searched (docs) are in English; search again with English words]`,
    );
    expect(outcome.text).not.toContain("not covered");
  });

  it("auto: asks the model although the search scored high, and the model's English rewrite is searched", async () => {
    const grade = scriptedGrader({
      verdict: "insufficient",
      reason: "the question is German",
      rewrittenQuery: "insert page numbers footer",
    });
    const search = backend();
    const outcome = await correct(GERMAN_QUERY, { grader: "auto", grade, backend: search }).outcome;
    expect(grade.inputs).toHaveLength(1);
    expect(outcome.metadata.graderMode).toBe("haiku");
    expect(search.requests.map((r) => r.query)).toContain("insert page numbers footer");
    expect(outcome.text).toContain("page-numbers.html");
    // The model searched in the documents' words: no language note on top of its re-query.
    expect(outcome.text).not.toContain(LANGUAGE_NOTE_START);
  });

  it("auto: the same confident search in the documents' language never reaches the model", async () => {
    const grade = scriptedGrader({ verdict: "insufficient", reason: "never asked" });
    const outcome = await correct(ENGLISH_QUERY, { grader: "auto", grade }).outcome;
    expect(grade.inputs).toHaveLength(0);
    expect(outcome.changed).toBe(false);
    expect(outcome.metadata.verdicts).toEqual(["correct"]);
    expect(outcome.metadata.languageMismatch).toBeUndefined();
  });

  it("auto without a known language (a Huginn collection, an auto one not indexed) leaves a confident German search alone", async () => {
    const grade = scriptedGrader({ verdict: "insufficient", reason: "never asked" });
    const outcome = await correct(GERMAN_QUERY, {
      grader: "auto",
      grade,
      languages: { collections: { docs: { tags: [], name: "language detected per document" } }, guess },
    }).outcome;
    expect(grade.inputs).toHaveLength(0);
    expect(outcome.changed).toBe(false);
  });

  it("a detector that throws detects nothing: the pass goes on as without languages", async () => {
    const broken = () => {
      throw new Error("detector broke");
    };
    const outcome = await correct(GERMAN_QUERY, {
      grader: "signal",
      languages: { ...languages, guess: broken },
    }).outcome;
    expect(outcome.metadata.verdicts).toEqual(["correct"]);
    expect(outcome.changed).toBe(false);
  });
});
