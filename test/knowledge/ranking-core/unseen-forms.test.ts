// A query word in a form no section holds, in a language analysed with prefix stems, is searched
// as the indexed form sharing its first five letters; in other languages, and for a word no
// indexed form begins like, nothing changes — and the corrective pass says "not covered" only
// for the latter.
import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import { runCorrectiveRetrieval } from "../../../src/corrective/corrective-pass.js";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import { LexicalIndex } from "../../../src/knowledge/index/lexical-index.js";
import { type IndexableDocument, queryTermsFor } from "../../../src/knowledge/ranking-core/index.js";
import { heldFormOf } from "../../../src/knowledge/ranking-core/unseen-forms.js";
import { renderSearchResponse } from "../../../src/knowledge-tool/render.js";
import { silent } from "../../corrective/corrective-fixtures.js";

const doc = (id: string, title: string, content: string): IndexableDocument => ({
  id,
  title,
  sections: [{ headingPath: [title], content }],
});

const russian = KnowledgeEngine.fromDocuments(
  {
    help: [
      doc(
        "cells",
        "Ячейка",
        "Ячейка таблицы хранит число или текст. Выделите ячейку и введите текст. Ячейка может содержать формулу.",
      ),
      doc("open", "Открытие документа", "Откройте меню Файл и выберите документ в списке."),
      doc("print", "Печать", "Документ можно напечатать на принтере из меню Файл."),
      doc("save", "Сохранение", "Сохраните документ в формате ODF через меню Файл."),
      doc("formats", "Форматы файлов", "Формат ODF открыт; формат DOCX тоже поддерживается."),
      doc("forms", "Формы", "Форма служит для ввода данных."),
    ],
  },
  { language: "ru" },
);
const russianIndex = russian.collectionIndex("help")!;

describe("a word in a form no section holds (prefix-stemmed languages)", () => {
  it("Russian: a case form the help never writes finds the page of its other forms", () => {
    const ru = analyzerFor("ru");
    expect(ru.prefixStemLetters).toBe(6);
    // "ячейке" keeps its ending (six letters) and no section writes it.
    expect(ru.analyze("ячейке")).toEqual(["ячейке"]);
    expect(russianIndex.lexical.termId("ячейке")).toBeUndefined();
    // Searched as the most frequent form beginning "ячейк" ("ячейка", "ячейку": one section each; the first in sorted order wins the tie).
    expect(queryTermsFor("ячейке", russianIndex)).toEqual(["ячейка"]);
    const response = russian.searchSync({ query: "ячейке" });
    expect(response.results[0]?.id).toBe("cells");
    expect(response.retryHints?.unmatchedTerms ?? []).not.toContain("ячейке");
    // The first person ("открою") meets the imperative the help writes ("откройте").
    expect(queryTermsFor("открою документ", russianIndex)).toEqual(["открой", "докуме"]);
    expect(russian.searchSync({ query: "открою" }).results[0]?.id).toBe("open");
    // Of the forms beginning "форма", the most frequent: "формат" (two sections) over "форма" (one).
    expect(heldFormOf(russianIndex.lexical, ru, "формам")).toBe("формат");
  });

  it("Finnish: a plural the help never writes finds the page of the singular's cases", () => {
    const finnish = KnowledgeEngine.fromDocuments(
      {
        help: [
          doc(
            "formula",
            "Kaava",
            "Kaavassa voi olla viittauksia soluihin. Kirjoita kaavaan ensin yhtäsuuruusmerkki.",
          ),
          doc("cell", "Solu", "Solussa voi olla teksti. Valitse solu ja kirjoita."),
          doc("page", "Sivu", "Vaihda sivun suunta valikosta Muotoilu."),
        ],
      },
      { language: "fi" },
    );
    const index = finnish.collectionIndex("help")!;
    expect(analyzerFor("fi").analyze("kaavat")).toEqual(["kaavat"]);
    expect(index.lexical.termId("kaavat")).toBeUndefined();
    // "kaava", "kaavas", "kaavaa" are one section each: the first in sorted order.
    expect(queryTermsFor("kaavat", index)).toEqual(["kaava"]);
    expect(finnish.searchSync({ query: "kaavat" }).results[0]?.id).toBe("formula");
    // A word longer than the stem was cut to it: a stem no section holds ("solust") is left as it
    // is, though "soluss" shares its first five letters.
    expect(heldFormOf(index.lexical, analyzerFor("fi"), "solust")).toBe("soluss");
    expect(queryTermsFor("solusta", index)).toEqual(["solust"]);
    expect(finnish.searchSync({ query: "solusta kaava" }).retryHints?.unmatchedTerms ?? []).toContain(
      "solusta",
    );
  });

  it("a word whose first five letters no indexed term shares stays as it is, and unmatched", () => {
    expect(heldFormOf(russianIndex.lexical, analyzerFor("ru"), "куберн")).toBeUndefined();
    expect(queryTermsFor("кубернетес", russianIndex)).toEqual(["куберн"]);
    expect(russian.searchSync({ query: "кубернетес документ" }).retryHints?.unmatchedTerms).toEqual([
      "кубернетес",
    ]);
    // Words shorter than the prefix, and numbers, are never looked up.
    expect(heldFormOf(russianIndex.lexical, analyzerFor("ru"), "яче")).toBeUndefined();
    expect(heldFormOf(russianIndex.lexical, analyzerFor("ru"), "12345")).toBeUndefined();
  });

  it("an index of some candidate sections read with the collection's statistics looks nothing up", () => {
    const ru = analyzerFor("ru");
    const units = [{ title: ru.analyze("Ячейка"), body: ru.analyze("Выделите ячейку и введите текст.") }];
    const statistics = { unitCount: 100, avgTitleLength: 1, avgBodyLength: 5, documentFrequency: () => 1 };
    const whole = LexicalIndex.build(units);
    const candidates = LexicalIndex.build(units, undefined, statistics);
    expect(whole.holdsWholeVocabulary).toBe(true);
    expect(heldFormOf(whole, ru, "ячейке")).toBe("ячейка");
    // It lacks the terms no candidate holds: the most frequent form is not its to tell.
    expect(candidates.holdsWholeVocabulary).toBe(false);
    expect(heldFormOf(candidates, ru, "ячейке")).toBeUndefined();
  });

  it("English is not prefix-stemmed: a word sharing five letters with an indexed term stays unmatched", () => {
    const english = KnowledgeEngine.fromDocuments({
      handbook: [
        doc("pto", "Vacation", "Every employee gets 25 vacation days per calendar year."),
        doc("sick", "Sick leave", "Report sick days to your manager before nine."),
      ],
    });
    const index = english.collectionIndex("handbook")!;
    const en = analyzerFor("en");
    expect(en.prefixStemLetters).toBeUndefined();
    // "vacatur" begins like the indexed "vacat" ("vacation") and is left alone.
    expect(queryTermsFor("vacatur days", index)).toEqual(en.analyze("vacatur days"));
    expect(heldFormOf(index.lexical, en, "vacatur")).toBeUndefined();
    expect(english.searchSync({ query: "vacatur days" }).retryHints?.unmatchedTerms).toEqual(["vacatur"]);
  });
});

describe("not covered, in a prefix-stemmed language", () => {
  const correct = async (query: string) => {
    const original = await russian.search({ query });
    return runCorrectiveRetrieval({
      question: query,
      originalQuery: query,
      originalText: renderSearchResponse(original, { brief: false }),
      originalResponse: original,
      allowedCollections: ["help"],
      backend: russian,
      log: silent,
    });
  };

  it("is not said for a word whose other forms are indexed", async () => {
    const out = await correct("формат ячейке");
    expect(out.metadata.notCovered).toBeUndefined();
  });

  it("is said for a word no indexed term begins like", async () => {
    const out = await correct("формат кубернетес");
    expect(out.metadata.notCovered?.terms).toEqual(["кубернетес"]);
  });
});
