import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { indexDirectory, openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { BotConfigError } from "../../../src/bots/config-error.js";
import { validateBotConfig } from "../../../src/bots/load-config.js";
import { CollectionAnalysis } from "../../../src/knowledge/analysis/collection-analysis.js";
import { languageDetector } from "../../../src/knowledge/analysis/detect.js";
import { IndexStore } from "../../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../../src/knowledge/index/refresh.js";
import { logLines } from "../../support/capture-logs.js";

const FILE = "bots/demo/config.json";

function configProblems(language: string, backend = "embedded"): string[] {
  const config = {
    knowledge: {
      backend,
      ...(backend === "postgres" ? { postgres: { urlEnv: "DATABASE_URL" } } : {}),
      collections: { docs: { paths: ["docs/**/*.md"], language } },
    },
  };
  try {
    validateBotConfig(config, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BotConfigError);
    return [(error as BotConfigError).message, ...(error as BotConfigError).problems];
  }
  return [];
}

describe("knowledge.collections.<name>.language", () => {
  it("accepts a supported BCP-47 tag, with region or script, and auto", () => {
    for (const tag of ["nb", "nb-NO", "nn", "de-AT", "zh-Hans", "ja", "auto"]) {
      expect(configProblems(tag)).toEqual([]);
    }
  });

  it("rejects an unknown tag naming the file, the key, the value and the closest supported tag", () => {
    const text = configProblems("norwegian").join("\n");
    expect(text).toContain(FILE);
    expect(text).toContain("knowledge.collections.docs.language");
    expect(text).toContain('"norwegian"');
    expect(text).toContain('did you mean "nb"');
    expect(configProblems("dutch").join("\n")).toContain('did you mean "nl"');
    // A common alias is taken as the language it names.
    expect(configProblems("jp")).toEqual([]);
  });

  it("a tag and auto both work with postgres", () => {
    expect(configProblems("auto", "postgres")).toEqual([]);
    expect(configProblems("nb", "postgres")).toEqual([]);
  });
});

describe("language detection", () => {
  it("names the language of a sentence, and of a whole document", async () => {
    const detect = await languageDetector();
    expect(detect("Hvordan endrer jeg sidetallene slik at de starter på side to i dokumentet?")?.tag).toBe(
      "nb",
    );
    expect(detect("Wie bleibt die Überschriftenzeile beim Runterscrollen sichtbar?")?.tag).toBe("de");
    expect(detect("スクロールしても見出し行が見えたままにするには")?.tag).toBe("ja");
    expect(detect("Miten saan otsikkorivin näkymään, kun vieritän alas?")?.tag).toBe("fi");
  });

  it("has no verdict on text without letters, and reads only the start of a long text", async () => {
    const detect = await languageDetector();
    expect(detect("12345 -- 678")).toBeUndefined();
    const mixed = `${"Dette er en norsk tekst om ferie og fravær for alle ansatte. ".repeat(100)}${"This is English. ".repeat(2000)}`;
    expect(detect(mixed)?.tag).toBe("nb");
  });
});

describe("an auto collection's analyzer of one query", () => {
  const mix = new Map([
    ["nb", 60],
    ["en", 40],
  ]);

  it("is the query's own language when the detector is sure of it and the collection holds it", async () => {
    const analysis = await CollectionAnalysis.forSearch("auto");
    expect(analysis.queryAnalyzer(mix, "Hvordan søker jeg om ferie før påske?").id).toBe(
      CollectionAnalysis.of("nb").id,
    );
    expect(analysis.queryAnalyzer(mix, "How do I install the VPN client on my laptop?").id).toBe(
      CollectionAnalysis.of("en").id,
    );
  });

  it("is every language the collection holds otherwise: a language it lacks, no verdict, or no detector", async () => {
    const analysis = await CollectionAnalysis.forSearch("auto");
    const union = CollectionAnalysis.of("auto").queryAnalyzer(mix).id;
    expect(union).toBe(`${CollectionAnalysis.of("nb").id}+${CollectionAnalysis.of("en").id}`);
    expect(analysis.queryAnalyzer(mix, "Wie beantrage ich meinen Urlaub vor Ostern?").id).toBe(union);
    expect(analysis.queryAnalyzer(mix, "12345").id).toBe(union);
    // `of` has no detector (indexing, ids): every query of a mixed collection in all its languages.
    expect(CollectionAnalysis.of("auto").queryAnalyzer(mix, "Hvordan søker jeg om ferie før påske?").id).toBe(
      union,
    );
  });
});

let bot: string;
beforeEach(async () => {
  bot = await mkdtemp(join(tmpdir(), "second-look-language-"));
  await mkdir(join(bot, "docs"), { recursive: true });
  await writeFile(
    join(bot, "docs", "ferie.md"),
    "# Ferie\n\nAlle ansatte har rett på fem uker ferie i året. Søknaden om ferie sendes til nærmeste leder før påske.\n",
  );
  await writeFile(
    join(bot, "docs", "vpn.md"),
    "# VPN access\n\nEmployees connect to the office network through the VPN client. Install it from the portal.\n",
  );
});
afterEach(async () => rm(bot, { recursive: true, force: true }));

describe("a collection's language decides how it is indexed and searched", () => {
  it("a Norwegian collection finds an inflected Norwegian word that English analysis misses", async () => {
    // Set to English: with no setting, this collection (half of it Norwegian) is detected as Norwegian.
    const english = await openEmbeddedEngine(bot, { docs: { paths: ["docs/**/*.md"], language: "en" } });
    expect((await english.engine.search({ query: "søknader" })).results).toEqual([]);
    const norwegian = await openEmbeddedEngine(bot, { docs: { paths: ["docs/**/*.md"], language: "nb" } });
    const found = await norwegian.engine.search({ query: "søknader" });
    expect(found.results[0]?.id).toBe("docs/ferie.md");
  });

  it("changing the language re-indexes the collection, says so, and never serves the old terms", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, { name: "docs", paths: ["docs/**/*.md"], language: "en" }, store);
    const { result, log } = await logLines(() =>
      refreshCollection(bot, { name: "docs", paths: ["docs/**/*.md"], language: "nb" }, store),
    );
    expect(result.report).toMatchObject({ added: 2, unchanged: 0, written: true });
    expect(log).toMatch(
      /indexed with analyzer en-porter-1; its language is now \\"nb\\".*re-indexing every file/,
    );
    expect(await store.inspect("docs", CollectionAnalysis.of(undefined).id)).toMatchObject({
      state: "stale",
    });
    expect((await store.load("docs", CollectionAnalysis.of("nb").id))?.length).toBe(2);
    // The same language again: nothing to do.
    const again = await refreshCollection(
      bot,
      { name: "docs", paths: ["docs/**/*.md"], language: "nb" },
      store,
    );
    expect(again.report).toMatchObject({ unchanged: 2, written: false });
  });

  it("an index an older version of its language's analysis built re-indexes, and says why", async () => {
    await writeFile(join(bot, "docs", "tablica.md"), "# Таблицы\n\nСтроки таблицы можно закрепить.\n");
    const store = new IndexStore(indexDirectory(bot));
    const source = { name: "docs", paths: ["docs/**/*.md"], language: "ru" };
    const first = await refreshCollection(bot, source, store);
    // Stored as the Snowball-stemmed Russian analysis (ru-1) stored its indexes.
    await store.save("docs", first.documents, [], "ru-1");
    const { result, log } = await logLines(() => refreshCollection(bot, source, store));
    expect(result.report).toMatchObject({ added: 3, unchanged: 0, written: true });
    expect(log).toContain(
      `indexed with analyzer ru-1; the analysis of \\"ru\\" has changed since (analyzer ${CollectionAnalysis.of("ru").id}): re-indexing every file`,
    );
    expect((await store.load("docs", CollectionAnalysis.of("ru").id))?.length).toBe(3);
  });

  it("auto: each document in its own language, queries in every language the collection holds", async () => {
    const { engine } = await openEmbeddedEngine(bot, { docs: { paths: ["docs/**/*.md"], language: "auto" } });
    const index = engine.collectionIndex("docs")!;
    expect(Object.fromEntries(index.languages)).toEqual({ nb: 1, en: 1 });
    expect((await engine.search({ query: "søknader om ferie" })).results[0]?.id).toBe("docs/ferie.md");
    expect((await engine.search({ query: "installing the vpn" })).results[0]?.id).toBe("docs/vpn.md");
  });
});
