// The multilingual documentation suite's options and the handbook set's data: which languages
// run, what the collection's `language` is set to, and that every language's questions carry the
// English file's judgments.
import snowball from "snowball-stemmers";
import { describe, expect, it } from "vitest";
import { HANDBOOK, HANDBOOK_LANGUAGES } from "../../bench/debian-handbook/set.js";
import { LOHELP } from "../../bench/lohelp/languages.js";
import { languageMode, questionsFile, selectLanguages, setBotConfig } from "../../bench/multilingual/set.js";
import { CollectionSchema } from "../../src/bots/config-schema.js";
import { readJudgedQuestions } from "../../src/evaluation/judged-questions.js";

const nb = HANDBOOK_LANGUAGES.find((l) => l.code === "nb-no")!;
const docsOf = (config: Record<string, unknown>) =>
  (config.knowledge as { collections: { docs: Record<string, unknown> } }).collections.docs;

describe("multilingual set options", () => {
  it("runs every language of the set, or those <P>_LANGS names, and refuses an unknown one", () => {
    expect(selectLanguages(HANDBOOK, undefined).map((l) => l.code)).toEqual([
      "en-us",
      "nb-no",
      "de-de",
      "fr-fr",
      "es-es",
      "pt-br",
      "it-it",
      "ru-ru",
      "ja-jp",
    ]);
    expect(selectLanguages(HANDBOOK, "FR-FR, nb-no").map((l) => l.code)).toEqual(["nb-no", "fr-fr"]);
    expect(() => selectLanguages(HANDBOOK, "nb-no,da-dk")).toThrow(
      "HANDBOOK_LANGS: unknown language(s) da-dk",
    );
    expect(() => selectLanguages(LOHELP, "nb-no")).toThrow("LOHELP_LANGS: unknown language(s) nb-no");
  });

  it("sets the tag, auto or en, or omits `language`, and the config schema takes each", () => {
    expect(docsOf(setBotConfig(HANDBOOK, nb, "tag")).language).toBe("nb-NO");
    expect(docsOf(setBotConfig(HANDBOOK, nb, "en")).language).toBe("en");
    expect(docsOf(setBotConfig(HANDBOOK, nb, "auto")).language).toBe("auto");
    expect(docsOf(setBotConfig(HANDBOOK, nb, "none"))).toEqual({ paths: ["docs/**/*.html"] });
    for (const language of HANDBOOK_LANGUAGES) {
      const docs = docsOf(setBotConfig(HANDBOOK, language, "tag"));
      expect(CollectionSchema.safeParse(docs).success, language.tag).toBe(true);
    }
  });

  it("reads the mode from the set's own variable and names it in the error", () => {
    expect(languageMode(HANDBOOK, "EN")).toBe("en");
    expect(() => languageMode(HANDBOOK, "norwegian")).toThrow(
      'HANDBOOK_LANGUAGE must be one of none, tag, auto, en, got "norwegian"',
    );
  });

  it("gives every handbook language a Snowball stemmer the peers can build", () => {
    for (const language of HANDBOOK_LANGUAGES) {
      expect(snowball.newStemmer(language.snowball).stem("packages"), language.code).toBeTypeOf("string");
      expect(language.stopwords.length, language.code).toBeGreaterThan(10);
    }
  });
});

describe("handbook questions", () => {
  it("hold the same ids, kinds and relevant pages in every language, only the text differs", async () => {
    const english = await readJudgedQuestions(questionsFile(HANDBOOK, "en-us"));
    expect(english).toHaveLength(83);
    expect(english.filter((q) => q.kind === "unanswerable")).toHaveLength(20);
    const paraphrase = english.filter((q) => q.kind === "answerable" && q.vocab === "paraphrase");
    expect(paraphrase.length / english.filter((q) => q.kind === "answerable").length).toBeGreaterThanOrEqual(
      0.4,
    );
    const judgments = (qs: typeof english) =>
      qs.map(({ id, kind, relevant, style, vocab }) => ({ id, kind, relevant, style, vocab }));
    for (const language of HANDBOOK_LANGUAGES.slice(1)) {
      const own = await readJudgedQuestions(questionsFile(HANDBOOK, language.code));
      expect(judgments(own), language.code).toEqual(judgments(english));
      const translated = own.filter((q, i) => q.text !== english[i]!.text);
      expect(translated.length, language.code).toBeGreaterThanOrEqual(english.length - 1);
    }
  });
});
