// The language-mismatch rule (src/weakness.ts) with the real detector (eld): a question
// clearly in another language than the documents is flagged; a short query, a query in the
// documents' language, one mixing in a foreign product or function name, and one in a
// language written alike are not.
import { beforeAll, describe, expect, it } from "vitest";
import { type LanguageDetector, languageDetector } from "../../src/knowledge/analysis/detect.js";
import {
  isLanguageMismatch,
  languageEvidence,
  MIN_LANGUAGE_LETTERS,
  mayBeInAnotherLanguage,
} from "../../src/weakness.js";

let guess: LanguageDetector;
beforeAll(async () => {
  guess = await languageDetector();
});

const mismatch = (query: string, documents: string[]) => isLanguageMismatch(query, guess(query), documents);

describe("query language guess", () => {
  it("names the language by a supported tag and its English name, with scores", () => {
    const g = guess("Wie füge ich Seitenzahlen in die Fußzeile ein?");
    expect(g).toMatchObject({ tag: "de", name: "German", reliable: true });
    expect(g!.scores.de).toBeGreaterThan(g!.scores.en ?? 0);
  });

  it("maps the detector's Norwegian to nb and guesses nothing for text without letters", () => {
    expect(guess("Hvordan setter jeg inn sidetall i bunnteksten på hver side?")?.tag).toMatch(/^(nb|da)$/);
    expect(guess("12345 -- ?!")).toBeUndefined();
  });
});

describe("isLanguageMismatch", () => {
  it("flags questions clearly in another language than English documents", () => {
    expect(mismatch("Wie füge ich Seitenzahlen in die Fußzeile ein?", ["en"])).toBe(true);
    expect(mismatch("Comment insérer des numéros de page dans le pied de page ?", ["en"])).toBe(true);
    expect(mismatch("Miten lisään sivunumerot alatunnisteeseen?", ["en"])).toBe(true);
    expect(mismatch("フッターにページ番号を挿入する方法", ["en"])).toBe(true);
  });

  it("never flags a query written in the documents' language", () => {
    for (const query of [
      "How do I insert page numbers in the footer?",
      "install LibreOffice on android tablet",
      "pivot table refresh after the source data changed",
      "Datei speichern unter PDF bookmarks table of contents",
    ]) {
      expect(mismatch(query, ["en"]), query).toBe(false);
    }
    expect(mismatch("Wie füge ich Seitenzahlen in die Fußzeile ein?", ["de"])).toBe(false);
    expect(mismatch("フッターにページ番号を挿入する方法", ["ja"])).toBe(false);
  });

  it("does not judge short queries, whatever the detector says", () => {
    expect(languageEvidence("PDF export")).toBeLessThan(MIN_LANGUAGE_LETTERS);
    expect(mismatch("PDF export", ["en"])).toBe(false);
    expect(mismatch("Fußzeile", ["en"])).toBe(false);
    expect(mismatch("目次", ["en"])).toBe(false);
  });

  it("does not flag an English question that names one foreign function", () => {
    expect(mismatch("how do I use the SVERWEIS function in a Calc spreadsheet", ["en"])).toBe(false);
  });

  it("does not flag a query holding the documents' own script, whatever its Latin words read as", () => {
    expect(mismatch("SmartArt 組織図 writer for my reports", ["ja"])).toBe(false);
    expect(mismatch("SmartArt 組織図 writer for my reports", ["en"])).toBe(false);
  });

  it("does not flag Danish over Norwegian documents (written alike)", () => {
    expect(mismatch("Hvordan indsætter jeg sidetal i sidefoden på hver side?", ["nb"])).toBe(false);
  });

  it("is not a mismatch when one of the searched languages is the query's", () => {
    expect(mismatch("Wie füge ich Seitenzahlen in die Fußzeile ein?", ["en", "de"])).toBe(false);
  });

  it("never flags without a reliable guess or without known document languages", () => {
    const query = "Wie füge ich Seitenzahlen in die Fußzeile ein?";
    expect(isLanguageMismatch(query, undefined, ["en"])).toBe(false);
    expect(isLanguageMismatch(query, { ...guess(query)!, reliable: false }, ["en"])).toBe(false);
    expect(isLanguageMismatch(query, guess(query), [])).toBe(false);
  });

  it("counts a Han, Kana or Hangul character as three letters", () => {
    expect(languageEvidence("目次")).toBe(6);
    expect(languageEvidence("page 1")).toBe(4);
  });
});

describe("mayBeInAnotherLanguage (whether the detector is asked at all)", () => {
  const german = "Wie füge ich Seitenzahlen in die Fußzeile ein?";
  const english = "how do I insert page numbers in the footer";

  it("rules out a query whose every word English documents hold", () => {
    expect(mayBeInAnotherLanguage(german, ["en"], { unmatchedShare: 0 })).toBe(false);
    expect(isLanguageMismatch(german, guess(german), ["en"], { coverage: { unmatchedShare: 0 } })).toBe(
      false,
    );
    expect(mayBeInAnotherLanguage(german, ["en"], { unmatchedShare: 0.4 })).toBe(true);
    expect(isLanguageMismatch(german, guess(german), ["en"], { coverage: { unmatchedShare: 0.4 } })).toBe(
      true,
    );
    // Unknown (a result seen only as text): the detector decides.
    expect(mayBeInAnotherLanguage(german, ["en"])).toBe(true);
  });

  it("over other languages' documents, asks for the language's own function words as well", () => {
    // German documentation holds English words: held whole is not enough.
    expect(mayBeInAnotherLanguage(english, ["de"], { unmatchedShare: 0, ownFunctionWords: 0 })).toBe(true);
    expect(mayBeInAnotherLanguage(english, ["de"], { unmatchedShare: 0 })).toBe(true);
    expect(mayBeInAnotherLanguage(german, ["de"], { unmatchedShare: 0, ownFunctionWords: 1 })).toBe(true);
    expect(mayBeInAnotherLanguage(german, ["de"], { unmatchedShare: 0, ownFunctionWords: 2 })).toBe(false);
    expect(mayBeInAnotherLanguage(german, ["de"], { unmatchedShare: 0.2, ownFunctionWords: 3 })).toBe(true);
    // Several languages searched: the count is one collection's.
    expect(mayBeInAnotherLanguage(german, ["de", "fr"], { unmatchedShare: 0, ownFunctionWords: 3 })).toBe(
      true,
    );
    expect(mayBeInAnotherLanguage(english, ["en", "de"], { unmatchedShare: 0 })).toBe(true);
  });

  it("rules out a query holding a letter of a document language's own script, or too few letters", () => {
    expect(mayBeInAnotherLanguage("Как вставить номера страниц?", ["ru"])).toBe(false);
    expect(mayBeInAnotherLanguage("Как вставить номера страниц?", ["en"])).toBe(true);
    expect(mayBeInAnotherLanguage("SmartArt 組織図 writer for my reports", ["en", "ja"])).toBe(false);
    expect(mayBeInAnotherLanguage("PDF export", ["en"])).toBe(false);
    expect(mayBeInAnotherLanguage(german, [])).toBe(false);
  });
});
