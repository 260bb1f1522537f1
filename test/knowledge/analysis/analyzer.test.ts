import { describe, expect, it } from "vitest";
import { CollectionAnalysis, UnionAnalyzer } from "../../../src/knowledge/analysis/collection-analysis.js";
import { compoundPlan } from "../../../src/knowledge/analysis/compounds.js";
import { LANGUAGE_PROFILES, PREFIX_STEM_LETTERS } from "../../../src/knowledge/analysis/languages.js";
import {
  analyzerFor,
  closestLanguage,
  languageOf,
  SUPPORTED_LANGUAGES,
} from "../../../src/knowledge/analysis/registry.js";

const en = analyzerFor("en");

describe("English, as the engine always analysed it", () => {
  it("lower-cases, drops English stopwords and stems to Porter stems", () => {
    expect(en.analyze("How many Vacation DAYS do I get?")).toEqual(["vacat", "dai"]);
  });

  it("matches inflections of the same word to one term", () => {
    expect(en.analyze("boundary layers")).toEqual(en.analyze("boundaries layer"));
  });

  it("keeps letters of any script and numbers; words with non-ASCII letters are not stemmed", () => {
    expect(en.analyze("Ferie på Svalbard: 25 dager, søknad")).toEqual([
      "feri",
      "på",
      "svalbard",
      "25",
      "dager",
      "søknad",
    ]);
  });

  it("indexes Han characters one by one; its id is the one indexes built before languages carry", () => {
    expect(en.analyze("年假")).toEqual(["年", "假"]);
    expect(en.id).toBe("en-porter-1");
    // The English-only engine glued "PDFで公開" into one term; English keeps that (its indexes stay
    // valid), every other analyzer splits scripts.
    expect(en.analyze("PDFで公開")).toEqual(["pdfで公開"]);
    expect(analyzerFor("de").analyze("PDFで公開")).toEqual(["pdf", "で", "公", "開"]);
  });

  it("normalises compatibility forms (NFKC) so full-width text matches", () => {
    expect(en.analyze("ＶＰＮ")).toEqual(en.analyze("vpn"));
  });

  it("drops tokens longer than a word can be (hashes, base64)", () => {
    expect(en.analyze(`key ${"a".repeat(41)} value`)).toEqual(["kei", "valu"]);
  });

  it("the ASCII fast path finds exactly the words the Unicode pattern finds", () => {
    const ascii = "Boundary-layer (M=2.5) flow's 3rd test; e-mail: ops@example.com\tTAB_x y__z";
    // A non-ASCII character at the end sends the same text through the Unicode pattern.
    expect([...en.words(ascii), "é"]).toEqual(en.words(`${ascii} é`));
    expect([...en.analyze(ascii), "é"]).toEqual(en.analyze(`${ascii} é`));
  });

  it("words keeps stopwords; termOf maps them to nothing", () => {
    expect(en.words("The VPN")).toEqual(["the", "vpn"]);
    expect(en.termOf("the")).toBeUndefined();
    expect(en.termOf("layers")).toBe("layer");
    expect(en.isStopwordTerm("get")).toBe(true);
  });
});

describe("Nordic languages: stems, their own letters kept", () => {
  it("Norwegian Bokmål", () => {
    const nb = analyzerFor("nb");
    expect(nb.analyze("Søknaden om ferie må sendes før påske; dokumentene ligger på nettsidene")).toEqual([
      "søknad",
      "feri",
      "må",
      "send",
      "påsk",
      "dokument",
      "ligg",
      "nettsid",
    ]);
    expect(nb.analyze("dokumentene")).toEqual(nb.analyze("dokumentet"));
    expect(nb.isStopword("hvordan")).toBe(true);
  });

  it("Nynorsk uses the Norwegian stemmer and knows its own function words", () => {
    const nn = analyzerFor("nn");
    expect(nn.analyze("Korleis søkjer eg om ferie?")).toEqual(["søkj", "feri"]);
  });

  it("Danish and Swedish keep å, æ, ø, ä, ö as letters (never folded to a or o)", () => {
    expect(analyzerFor("da").analyze("sidetallene i dokumentet")).toEqual(["sidetal", "dokument"]);
    const sv = analyzerFor("sv");
    expect(sv.analyze("Hur ändrar jag sidnumreringen så att den börjar på sidan två?")).toEqual([
      "ändr",
      "sidnumrering",
      "börj",
      "sidan",
      "två",
    ]);
    expect(sv.analyze("två")).not.toEqual(sv.analyze("tva"));
  });

  it("Finnish, whose nouns take many cases: prefix stems of six letters, not Snowball's", () => {
    const fi = analyzerFor("fi");
    // taulukko (table): nominative, genitive, inessive, illative, plural inessive — one term.
    expect(fi.analyze("taulukko taulukon taulukossa taulukkoon taulukoissa")).toEqual(
      Array(5).fill("tauluk"),
    );
    // A noun and the verb made from it meet too; ä and ö stay letters of their own.
    expect(fi.analyze("muotoilu muotoilla")).toEqual(["muotoi", "muotoi"]);
    expect(fi.analyze("äänitiedosto")).toEqual(["ääniti"]);
    // A word no longer than the prefix stays whole, so a short word's forms keep their endings.
    expect(fi.analyze("solu solun")).toEqual(["solu", "solun"]);
    expect(languageOf("fi")).toMatchObject({ prefixStem: PREFIX_STEM_LETTERS });
    expect(languageOf("fi")!.stemmer).toBeUndefined();
  });
});

describe("German, Dutch, Romance and Slavic languages", () => {
  it("German: umlauts and ß normalised by the stemmer, inflections meet", () => {
    const de = analyzerFor("de");
    expect(de.analyze("Straße schwärzen")).toEqual(["strass", "schwarz"]);
    expect(de.analyze("Überschriftenzeile")).toEqual(de.analyze("Überschriftenzeilen"));
    expect(de.analyze("geschwärzt")).toEqual(de.analyze("geschwarzt"));
    expect(de.isStopword("lassen")).toBe(false);
    expect(de.isStopword("die")).toBe(true);
  });

  it("Dutch", () => {
    expect(analyzerFor("nl").analyze("werkbladen werkblad")).toEqual(["werkblad", "werkblad"]);
  });

  it("French: elided articles dropped, accents folded before stemming so 'eleve' meets 'élève'", () => {
    const fr = analyzerFor("fr");
    expect(fr.analyze("l'onglet")).toEqual(["onglet"]);
    expect(fr.analyze("élève")).toEqual(fr.analyze("eleve"));
    expect(fr.analyze("activités")).toEqual(fr.analyze("activite"));
  });

  it("Spanish keeps ñ; Italian drops elided articles; Portuguese folds accents", () => {
    expect(analyzerFor("es").analyze("años")).not.toEqual(analyzerFor("es").analyze("anos"));
    expect(analyzerFor("it").analyze("dell'elenco")).toEqual(["elenc"]);
    expect(analyzerFor("pt").analyze("visível")).toEqual(analyzerFor("pt").analyze("visivel"));
  });

  it("Spanish indexes the words its long stopword list names, which still mark them for the word rules", () => {
    const es = analyzerFor("es");
    // "usar", "nuevo", "cuenta" carry a query's meaning though the list names them; "de" joins
    // the words of a multiword term ("barra de herramientas").
    expect(es.analyze("cómo usar la barra de herramientas nueva")).toEqual([
      "com",
      "usar",
      "la",
      "barr",
      "de",
      "herramient",
      "nuev",
    ]);
    expect(es.isStopword("de")).toBe(true);
    expect(es.isStopword("usar")).toBe(true);
    expect(es.termOf("de")).toBeUndefined();
    expect(es.termOf("barra")).toBe("barr");
    expect(es.id).toBe("es-3");
    // Other languages still drop their stopwords from the index.
    expect(analyzerFor("fr").analyze("la barre de outils")).toEqual(["barr", "outil"]);
  });

  it("Spanish stems the accented word and folds the stem, so the singular and plural of -ción meet", () => {
    const es = analyzerFor("es");
    expect(es.analyze("configuración configuraciones instalación instalaciones")).toEqual([
      "configur",
      "configur",
      "instal",
      "instal",
    ]);
    expect(es.analyze("máquina")).toEqual(es.analyze("máquinas"));
    // A stopword's index term is made the same way: the accented word stemmed, then folded.
    expect(es.analyze("también")).toEqual(["tambien"]);
    // French folds first: a word typed without its accents still meets the accented one.
    expect(analyzerFor("fr").analyze("activités")).toEqual(analyzerFor("fr").analyze("activite"));
  });

  it("Portuguese indexes its stopwords, which still mark them for the word rules", () => {
    const pt = analyzerFor("pt");
    expect(pt.analyze("pacotes que não são mais necessários")).toEqual([
      "pacot",
      "que",
      "nao",
      "sao",
      "mais",
      "necessari",
    ]);
    expect(pt.isStopword("não")).toBe(true);
    expect(pt.termOf("não")).toBeUndefined();
    expect(pt.id).toBe("pt-2");
  });

  it("Polish keeps ł (a letter of its own) and folds the other diacritics", () => {
    expect(analyzerFor("pl").analyze("Łódź")).toEqual(["łodz"]);
  });

  it("Polish and Ukrainian, which Snowball cannot stem, meet inflections by prefix stems", () => {
    const pl = analyzerFor("pl");
    // aplikacja / aplikacji / aplikacjami: one term; a word no longer than the prefix stays whole.
    expect(pl.analyze("aplikacja aplikacji aplikacjami")).toEqual(["aplika", "aplika", "aplika"]);
    expect(pl.analyze("arkusz")).toEqual(["arkusz"]);
    expect(pl.analyze("arkuszach")).toEqual(["arkusz"]);
    expect(pl.analyze("formatowanie")).not.toEqual(pl.analyze("formularz"));
    const uk = analyzerFor("uk");
    expect(uk.analyze("таблиця таблиці таблицями")).toEqual(["таблиц", "таблиц", "таблиц"]);
    // Letters, not UTF-16 units: a prefix never splits a character outside the BMP.
    expect(uk.analyze("𐌰𐌱𐌲𐌳𐌴𐌵𐌶")).toEqual(["𐌰𐌱𐌲𐌳𐌴𐌵"]);
    expect(analyzerFor("pl").id).toBe(`pl-${languageOf("pl")!.version}`);
    expect(languageOf("pl")!.prefixStem).toBe(PREFIX_STEM_LETTERS);
  });

  it("Russian, whose nouns take many cases: prefix stems of six letters, ё folded to е, Latin words as English", () => {
    const ru = analyzerFor("ru");
    // таблица (table) in five of its six cases and the plural instrumental: one term.
    expect(ru.analyze("таблица таблицы таблице таблицу таблицей таблицами")).toEqual(Array(6).fill("таблиц"));
    // The noun, the verb and the word itself meet (Snowball left форматирован and форматирова apart).
    expect(ru.analyze("форматирование форматировать формат")).toEqual(["формат", "формат", "формат"]);
    expect(ru.analyze("рабочие дни")[0]).toBe(ru.analyze("рабочих дней")[0]);
    expect(ru.analyze("ёлка")).toEqual(["елка"]);
    expect(ru.analyze("PDF exporting")).toEqual(["pdf", "export"]);
    expect(languageOf("ru")).toMatchObject({ prefixStem: PREFIX_STEM_LETTERS });
    expect(languageOf("ru")!.stemmer).toBeUndefined();
  });

  it("Turkish lower-cases with the Turkish rules (İ → i, I → ı)", () => {
    expect(analyzerFor("tr").words("İstanbul IŞIK")).toEqual(["istanbul", "ışık"]);
  });
});

describe("Japanese, Chinese, Korean and Thai: words without spaces", () => {
  it("Japanese: dictionary words from Intl.Segmenter, longer words also as bigrams, Latin words as English", () => {
    const ja = analyzerFor("ja");
    expect(ja.analyze("PDFで公開する前に機密の名前を黒塗り")).toEqual([
      "pdf",
      "公開",
      "前",
      "機密",
      "名前",
      "黒",
      "塗り",
    ]);
    // The long-vowel mark stays inside its word; a Katakana word is also found by its bigrams.
    expect(ja.analyze("スクロール")).toEqual(["スクロール", "スク", "クロ", "ロー", "ール"]);
  });

  it("Chinese", () => {
    expect(analyzerFor("zh").analyze("如何在滚动时保持标题行可见")).toEqual([
      "如何",
      "滚动",
      "保持",
      "标题",
      "行",
      "可见",
    ]);
  });

  it("Korean: Hangul runs as overlapping bigrams, so a word matches whatever particle follows it", () => {
    const ko = analyzerFor("ko");
    expect(ko.analyze("제목을")).toEqual(["제목", "목을"]);
    expect(ko.analyze("제목이")).toContain("제목");
  });

  it("Thai: segmented into words, never into combining marks", () => {
    const terms = analyzerFor("th").analyze("วิธีการตรึงแถว");
    expect(terms.length).toBeGreaterThan(1);
    for (const term of terms) expect(term).not.toMatch(/^\p{M}/u);
  });
});

describe("the registry", () => {
  it("has at least 20 languages, among them the ones users asked for", () => {
    expect(SUPPORTED_LANGUAGES.length).toBeGreaterThanOrEqual(20);
    for (const tag of [
      "nb",
      "nn",
      "da",
      "sv",
      "fi",
      "de",
      "nl",
      "fr",
      "es",
      "it",
      "pt",
      "pl",
      "ru",
      "ja",
      "zh",
      "ko",
    ]) {
      expect(SUPPORTED_LANGUAGES).toContain(tag);
    }
  });

  it("reads BCP-47 tags with regions and scripts, and the usual aliases", () => {
    expect(languageOf("nb-NO")?.tag).toBe("nb");
    expect(languageOf("no")?.tag).toBe("nb");
    expect(languageOf("zh-Hans-CN")?.tag).toBe("zh");
    expect(languageOf("pt-BR")?.tag).toBe("pt");
    expect(languageOf("EN-us")?.tag).toBe("en");
    expect(languageOf("klingon")).toBeUndefined();
    expect(languageOf("")).toBeUndefined();
  });

  it("suggests the closest supported tag", () => {
    expect(closestLanguage("norwegian")).toBe("nb");
    expect(closestLanguage("jp")).toBe("ja");
    expect(closestLanguage("dk")).toBe("da");
    expect(closestLanguage("German")).toBe("de");
    expect(closestLanguage("sw")).toBe("sv");
  });

  it("hands out one analyzer per language, with ids that change when a profile does", () => {
    expect(analyzerFor("nb-NO")).toBe(analyzerFor("nb"));
    const ids = new Set(LANGUAGE_PROFILES.map((p) => analyzerFor(p.tag).id));
    expect(ids.size).toBe(LANGUAGE_PROFILES.length);
    expect(analyzerFor("de").id).toBe(`de-${LANGUAGE_PROFILES.find((p) => p.tag === "de")!.version}`);
  });
});

describe("collection analysis", () => {
  it("a collection without a language is English; a tag names its analyzer", () => {
    expect(CollectionAnalysis.of(undefined).id).toBe(en.id);
    expect(CollectionAnalysis.of("de-AT").id).toBe(analyzerFor("de").id);
    expect(() => CollectionAnalysis.of("xx")).toThrow(/unsupported language/);
  });

  it("auto: documents in their own language, queries in every language with a real share", () => {
    const auto = CollectionAnalysis.of("auto");
    expect(auto.isAuto).toBe(true);
    const verdict = (tag: string, reliable: boolean) => ({ tag, name: tag, reliable, scores: { [tag]: 1 } });
    const detect = (text: string) => (/ø/.test(text) ? verdict("nb", true) : verdict("en", true));
    expect(auto.documentAnalyzer("Søknad om ferie", detect).language).toBe("nb");
    expect(auto.documentAnalyzer("Vacation request", detect).language).toBe("en");
    // An unreliable verdict falls back to English.
    expect(auto.documentAnalyzer("ok", () => verdict("nb", false)).language).toBe("en");
    const query = auto.queryAnalyzer(
      new Map([
        ["nb", 60],
        ["en", 38],
        ["de", 2],
      ]),
    );
    expect(query).toBeInstanceOf(UnionAnalyzer);
    expect((query as UnionAnalyzer).languages).toEqual(["nb", "en"]);
    // Each language's terms once: "dokumentene" is "dokument" in Norwegian, "dokumenten" in English.
    expect(query.analyze("dokumentene")).toEqual(["dokument", "dokumenten"]);
    // A word is a filler only when every language of the collection says so.
    expect(query.isStopword("og")).toBe(false);
    expect(query.isStopword("i")).toBe(true);
  });
});

describe("compounds, met through the collection's vocabulary", () => {
  const de = analyzerFor("de");
  const vocabulary = (words: string[]) => {
    const held = new Set(words.flatMap((w) => de.analyze(w)));
    return (term: string) => (held.has(term) ? 3 : 0);
  };

  it("splits a word the collection lacks into two parts it holds, across a linking element", () => {
    const plan = compoundPlan("Seitennummerierung ändern", de);
    expect(plan.choose(vocabulary(["Seite", "Nummerierung", "ändern"]))).toEqual(
      expect.arrayContaining([...de.analyze("Seite"), ...de.analyze("Nummerierung")]),
    );
    // Swedish and Danish, Dutch and Finnish compounds the same way.
    const sv = analyzerFor("sv");
    const held = new Set(["sid", ...sv.analyze("numrering")]);
    expect(compoundPlan("sidnumrering", sv).choose((t) => (held.has(t) ? 1 : 0))).toEqual([
      "sid",
      ...sv.analyze("numrering"),
    ]);
  });

  it("leaves a word alone when the collection holds it as written, or holds only one part", () => {
    const plan = compoundPlan("Seitennummerierung", de);
    expect(plan.choose(vocabulary(["Seitennummerierung", "Seite", "Nummerierung"]))).toEqual([]);
    expect(plan.choose(vocabulary(["Seite"]))).toEqual([]);
  });

  it("never splits in languages that do not compound, nor numbers, nor short words", () => {
    expect(compoundPlan("pagenumbering", analyzerFor("en")).candidates).toEqual([]);
    expect(compoundPlan("Haus", de).candidates).toEqual([]);
    expect(compoundPlan("ISO8859", de).candidates).toEqual([]);
  });
});
