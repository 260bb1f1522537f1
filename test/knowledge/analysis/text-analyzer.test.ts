import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import { openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { BotConfigError } from "../../../src/bots/config-error.js";
import { validateBotConfig } from "../../../src/bots/load-config.js";
import { collectionLanguages } from "../../../src/connectors/collection-languages.js";
import { analyzerDefinitionOf } from "../../../src/engine.js";
import { registerAnalyzer, TextAnalyzer } from "../../../src/index.js";
import { analyzerDefinition, LANGUAGE_PROFILES } from "../../../src/knowledge/analysis/languages.js";
import { analyzerFor, languageOf, SUPPORTED_LANGUAGES } from "../../../src/knowledge/analysis/registry.js";
import {
  asciiFolding,
  decompounder,
  prefixStem,
  snowball,
  stopwords,
  wordTokenizer,
} from "../../../src/knowledge/analysis/text-analyzer.js";

const docsConfig = (language: string) => ({
  knowledge: { backend: "embedded" as const, collections: { docs: { paths: ["docs/**/*.md"], language } } },
});

function configAccepts(language: string): boolean {
  try {
    validateBotConfig(docsConfig(language), "bots/demo/config.json");
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(BotConfigError);
    return false;
  }
}

describe("the supported languages are analyzers composed of filters, registered under their tags", () => {
  it("every tag's registration is its profile's composition, and the analyzer is built from it", () => {
    for (const profile of LANGUAGE_PROFILES) {
      const definition = analyzerDefinitionOf(profile.tag);
      expect(definition).toEqual(analyzerDefinition(profile));
      expect(analyzerFor(profile.tag).id).toBe(definition!.id);
    }
    expect(SUPPORTED_LANGUAGES.length).toBe(LANGUAGE_PROFILES.length);
  });

  it("German is a tokenizer, its stopwords, folding, the Snowball stemmer and the decompounder, in that order", () => {
    const german = analyzerDefinitionOf("de-AT")!;
    expect(german.tokenizer).toEqual({ kind: "words" });
    expect(german.filters.map((f) => f.kind)).toEqual(["stopwords", "fold", "snowball", "decompound"]);
    // Spanish stems before it folds; French drops elided articles as a filter of their own.
    expect(analyzerDefinitionOf("es")!.filters.map((f) => f.kind)).toEqual(["stopwords", "snowball", "fold"]);
    expect(analyzerDefinitionOf("fr")!.filters[0]).toMatchObject({ kind: "elisions" });
  });

  it("the same filters composed by hand analyse as the registered language does", () => {
    const german = languageOf("de")!;
    const byHand = TextAnalyzer.builder(wordTokenizer())
      .filter(stopwords(german.stopwords))
      .filter(asciiFolding())
      .filter(snowball("german"))
      .filter(decompounder())
      .build({ id: "de-by-hand-1", language: "de" });
    registerAnalyzer("de-by-hand", byHand);
    const text = "Die Überschriftenzeilen bleiben beim Runterscrollen sichtbar; Straße schwärzen";
    expect(analyzerFor("de-by-hand").analyze(text)).toEqual(analyzerFor("de").analyze(text));
    expect(analyzerFor("de-by-hand").splitsCompounds).toBe(true);
    expect(analyzerFor("de-by-hand").id).toBe("de-by-hand-1");
  });
});

describe("registerAnalyzer", () => {
  const shortStems = TextAnalyzer.builder(wordTokenizer())
    .filter(stopwords(["the", "of"]))
    .filter(prefixStem(5))
    .build({ id: "en-short-1", language: "en" });

  it("refuses names that are not slugs, and 'auto'", () => {
    expect(() => registerAnalyzer("auto", shortStems)).toThrow(RangeError);
    expect(() => registerAnalyzer("two words", shortStems)).toThrow(RangeError);
    expect(() => registerAnalyzer("nameless", { ...shortStems, id: " " })).toThrow(RangeError);
  });

  it("a registered name is a collection's language: the config accepts it, and the collection is analysed with it", () => {
    expect(configAccepts("short_stems")).toBe(false);
    registerAnalyzer("short_stems", shortStems);
    expect(configAccepts("short_stems")).toBe(true);
    expect(analyzerFor("short_stems").analyze("The configuration of printers")).toEqual(["confi", "print"]);
    const engine = KnowledgeEngine.fromDocuments(
      {
        docs: [
          {
            id: "printing.md",
            title: "Printing",
            sections: [{ headingPath: ["Printing"], content: "Configuring printers." }],
          },
        ],
      },
      { language: "short_stems" },
    );
    expect(engine.searchSync({ query: "confidential print jobs" }).results[0]?.id).toBe("printing.md");
    // The model is told the language the analyzer's text is in.
    expect(collectionLanguages(docsConfig("short_stems"))).toEqual({
      docs: { tags: ["en"], name: "English" },
    });
  });

  it("a language's tag replaces that language's analyzer, every spelling of the tag included", () => {
    const original = analyzerDefinitionOf("nb")!;
    const replaced = {
      ...original,
      id: "nb-replaced-1",
      filters: original.filters.filter((f) => f.kind !== "snowball"),
    };
    registerAnalyzer("nb", replaced);
    try {
      expect(analyzerFor("nb-NO").id).toBe("nb-replaced-1");
      expect(analyzerFor("nb").analyze("dokumentene")).toEqual(["dokumentene"]);
    } finally {
      registerAnalyzer("nb", original);
    }
    expect(analyzerFor("nb-NO").analyze("dokumentene")).toEqual(["dokument"]);
  });
});

describe("a registered analyzer reaches the parser threads that index a bot's files", () => {
  let bot: string;
  beforeAll(async () => {
    bot = await mkdtemp(join(tmpdir(), "second-look-own-analyzer-"));
    await mkdir(join(bot, "docs"), { recursive: true });
    await writeFile(join(bot, "docs", "printing.md"), "# Printing\n\nConfiguring printers for the office.\n");
    await writeFile(join(bot, "docs", "vpn.md"), "# VPN\n\nConnect through the VPN client.\n");
  });
  afterAll(async () => rm(bot, { recursive: true, force: true }));

  it("files are analysed with it, so a query meets them in its terms", async () => {
    registerAnalyzer(
      "stems_of_four",
      TextAnalyzer.builder(wordTokenizer()).filter(prefixStem(4)).build({ id: "en-four-1", language: "en" }),
    );
    const { engine, reports } = await openEmbeddedEngine(bot, {
      docs: { paths: ["docs/**/*.md"], language: "stems_of_four" },
    });
    expect(reports[0]).toMatchObject({ added: 2, skipped: [] });
    expect(engine.collectionIndex("docs")!.analysis.id).toBe("en-four-1");
    // "confidential" and "Configuring" meet only in their first four letters.
    expect((await engine.search({ query: "confidential" })).results[0]?.id).toBe("docs/printing.md");
  });
});
