import { describe, expect, it } from "vitest";
import { finishPass, passSettings, sayNotFound, withGrade } from "../../src/corrective/corrective-pass.js";
import { documentLanguageOf, languageMismatch } from "../../src/corrective/signal-grader.js";
import { NO_BETTER_MATCH_NOTE_START, NOT_COVERED_NOTE_START } from "../../src/knowledge-tool/result-text.js";
import { hit, response, silent, stubBackend } from "./corrective-fixtures.js";
import { passOver } from "./pass-support.js";

const backend = stubBackend(() => response("x", []), ["wiki", "wiki"]);
const english = { name: "English", tags: ["en"] };
const german = { tag: "de", name: "German", reliable: true, scores: { de: 0.9, en: 0.1 } };

describe("passSettings", () => {
  it("clamps the budget, applies the defaults and lists each allowed collection once", () => {
    const settings = passSettings({
      question: "  ",
      originalQuery: "q",
      originalText: "t",
      allowedCollections: ["wiki", "wiki"],
      backend,
      budget: 9,
      log: silent,
    });
    expect(settings).toMatchObject({ question: "q", allowed: ["wiki"], budget: 2, setting: "signal" });
    expect(settings.graderTimeoutMs).toBeGreaterThan(0);
    expect(settings.requeryTimeoutMs).toBeGreaterThan(0);
  });
});

describe("a pass's start and finish", () => {
  it("an uneventful pass finishes unchanged, with the verdicts it recorded", () => {
    const pass = withGrade(passOver(response("q", [hit("wiki", "1", "A", 0.9)]), { backend }), {
      verdict: "correct",
      reason: "fine",
    });
    const outcome = finishPass(pass);
    expect(outcome).toMatchObject({ changed: false, metadata: { finalVerdict: "correct", retries: 0 } });
    expect(outcome.text).toBe(pass.body);
  });

  it("says 'not covered' once, and not for a query in another language the model did not read", () => {
    const pass = sayNotFound(
      passOver(response("q", [hit("wiki", "1", "A", 0.2)]), { backend }),
      "nothing found",
      ["zyx"],
    );
    expect(pass.body).toContain(NOT_COVERED_NOTE_START);
    expect(finishPass(pass).metadata.notCovered).toEqual({ terms: ["zyx"], reason: "nothing found" });

    const languages = { collections: { wiki: english }, guess: () => german };
    const started = passOver(response("wie viele Urlaubstage habe ich", [hit("wiki", "1", "A", 0.9)]), {
      backend,
      languages,
    });
    expect(started.mismatch?.query.tag).toBe("de");
    expect(started.reading.signalGrade.verdict).toBe("insufficient");
    const foreign = sayNotFound(started, "nothing found", []);
    expect(foreign.notCovered).toBeUndefined();
    expect(finishPass(foreign).metadata.languageMismatch).toEqual({ query: "de", documents: ["en"] });
  });

  it("says 'not covered' only on evidence: a word no document contains, or the model's judgement", () => {
    // A low score alone: the line says nothing better was found, not that the documents lack it.
    const weak = sayNotFound(
      passOver(response("q", [hit("wiki", "1", "A", 0.2)]), { backend }),
      "re-queries found no confident match either",
      [],
    );
    expect(weak.body).not.toContain(NOT_COVERED_NOTE_START);
    expect(weak.body.split("\n").at(-1)).toBe(
      `${NO_BETTER_MATCH_NOTE_START}re-queries found no confident match either; the results above are the closest the search found]`,
    );
    const outcome = finishPass(weak);
    expect(outcome.metadata.notCovered).toBeUndefined();
    expect(outcome.metadata.noBetterMatch).toEqual({ reason: "re-queries found no confident match either" });
    expect(outcome.changed).toBe(true);

    // The model read the results and judged them silent: that is evidence.
    const judged = sayNotFound(
      { ...passOver(response("q", [hit("wiki", "1", "A", 0.2)]), { backend }), gradedByModel: true },
      "the pages are about something else",
      [],
    );
    expect(judged.body.split("\n").at(-1)!.startsWith(NOT_COVERED_NOTE_START)).toBe(true);
    expect(finishPass(judged).metadata.noBetterMatch).toBeUndefined();
  });
});

describe("the query's language", () => {
  it("is a mismatch only when every searched collection's language is known and the query is in none", () => {
    const languages = { collections: { wiki: english }, guess: () => german };
    const query = "wie viele Urlaubstage habe ich";
    expect(languageMismatch(query, ["wiki"], languages, silent)?.documentLanguage).toBe("English");
    expect(languageMismatch(query, ["wiki", "other"], languages, silent)).toBeUndefined();
    expect(documentLanguageOf(["wiki"], languages)).toBe("English");
    const throwing = {
      ...languages,
      guess: () => {
        throw new Error("no detector");
      },
    };
    expect(languageMismatch(query, ["wiki"], throwing, silent)).toBeUndefined();
  });
});
