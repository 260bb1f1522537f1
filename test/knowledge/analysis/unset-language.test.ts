// A collection without a `language` is analysed in the language its documents read as: detected
// once from a sample, recorded with the index, said in one line with the key that changes it.

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { indexDirectory, openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { DETECTION_SAMPLE_CHARS, languageDetector } from "../../../src/knowledge/analysis/detect.js";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import {
  chooseCollectionLanguage,
  detectCollectionLanguage,
  detectedLanguageLine,
  findUnsetLanguage,
  LanguageSample,
  UNSET_LANGUAGE_SAMPLE_DOCUMENTS,
} from "../../../src/knowledge/analysis/unset-language.js";
import { IndexStore } from "../../../src/knowledge/index/index-store.js";
import { ingestLimits } from "../../../src/knowledge/index/ingest-limits.js";
import { IngestPool } from "../../../src/knowledge/index/ingest-pool.js";
import { refreshCollection } from "../../../src/knowledge/index/refresh.js";
import { logLines } from "../../support/capture-logs.js";
import { hostileText } from "../../support/hostile-files.js";

const NORWEGIAN = [
  "Alle ansatte har rett på fem uker ferie i året. Søknaden om ferie sendes til nærmeste leder før påske.",
  "Reiseregningen leveres innen en måned etter at reisen er avsluttet, sammen med kvitteringene.",
  "Du kobler deg til kontornettet gjennom VPN-klienten, som du installerer fra portalen.",
  "Sykefravær meldes til lederen din den første dagen, og egenmelding kan brukes i inntil tre dager.",
  "Møterommene bestilles i kalenderen; avbestill rommet hvis møtet blir flyttet eller avlyst.",
];
const ENGLISH = [
  "Every employee is entitled to five weeks of annual leave. Send the request to your manager before Easter.",
  "Travel expense claims are submitted within a month after the trip ends, together with the receipts.",
  "You connect to the office network through the VPN client, which you install from the portal.",
  "Report sick leave to your manager on the first day; self-certification covers up to three days.",
  "Meeting rooms are booked in the calendar; cancel the room if the meeting is moved or called off.",
];
const GERMAN = [
  "Alle Mitarbeiter haben Anspruch auf fünf Wochen Urlaub im Jahr. Der Antrag geht an die Führungskraft.",
  "Reisekostenabrechnungen werden innerhalb eines Monats nach Reiseende mit den Belegen eingereicht.",
  "Die Verbindung zum Büronetz läuft über den VPN-Client, den Sie aus dem Portal installieren.",
];

describe("findUnsetLanguage", () => {
  it("names the language most sampled documents read as, when it is not English", async () => {
    const found = findUnsetLanguage(NORWEGIAN, await languageDetector());
    expect(found).toEqual({ tag: "nb", name: "Norwegian Bokmål", documents: 5, english: 0, sampled: 5 });
  });

  it("has nothing to say of English documents, or of a sample where no other language holds a third", async () => {
    const detect = await languageDetector();
    expect(findUnsetLanguage(ENGLISH, detect)).toBeUndefined();
    // German holds 2 of 7: under a third, so no verdict.
    expect(findUnsetLanguage([...GERMAN.slice(0, 2), ...ENGLISH], detect)).toBeUndefined();
    expect(findUnsetLanguage([], detect)).toBeUndefined();
  });

  it("counts the English documents of a mixed collection, so the warning can suggest auto", async () => {
    const found = findUnsetLanguage([...GERMAN, ...ENGLISH.slice(0, 2)], await languageDetector());
    expect(found).toMatchObject({ tag: "de", documents: 3, english: 2, sampled: 5 });
  });
});

describe("chooseCollectionLanguage (what init writes)", () => {
  it("English, the other language, or auto when English holds a clear share too", async () => {
    const detect = await languageDetector();
    expect(chooseCollectionLanguage(ENGLISH, detect).language).toBe("en");
    expect(chooseCollectionLanguage(NORWEGIAN, detect).language).toBe("nb");
    expect(chooseCollectionLanguage([...GERMAN, ...ENGLISH.slice(0, 2)], detect).language).toBe("auto");
    expect(chooseCollectionLanguage([], detect)).toEqual({ language: "en", finding: undefined });
  });
});

describe("detectCollectionLanguage", () => {
  it("is the non-English language a third of the sample reads as, else English, with what decided it", async () => {
    const detect = await languageDetector();
    expect(detectCollectionLanguage(NORWEGIAN, detect)).toEqual({ tag: "nb", documents: 5, sampled: 5 });
    expect(detectCollectionLanguage(ENGLISH, detect)).toEqual({ tag: "en", documents: 5, sampled: 5 });
    // A partly translated collection: the translation's language from a third of the sample.
    expect(detectCollectionLanguage([...GERMAN, ...ENGLISH], detect)).toEqual({
      tag: "de",
      documents: 3,
      sampled: 8,
    });
    expect(detectCollectionLanguage([...GERMAN.slice(0, 2), ...ENGLISH], detect).tag).toBe("en");
  });

  it("says what it is analysed in, what decided it, and the key that changes it", () => {
    expect(detectedLanguageLine("docs", { tag: "de", documents: 38, sampled: 40 })).toBe(
      "language: de (German; detected from 38 of 40 documents; set knowledge.collections.docs.language to fix it)",
    );
  });
});

describe("LanguageSample", () => {
  const long = "ord ".repeat(DETECTION_SAMPLE_CHARS);
  const pages = Array.from({ length: UNSET_LANGUAGE_SAMPLE_DOCUMENTS + 30 }, (_, i) => ({
    path: `docs/side-${i}.md`,
    document: { title: `Side ${i}`, sections: [{ content: long }, { content: "never read" }] },
  }));

  it("keeps a bounded sample, the same whatever order the documents come in", () => {
    const forward = new LanguageSample();
    for (const { path, document } of pages) forward.offer(path, document);
    const backward = new LanguageSample();
    for (const { path, document } of [...pages].reverse()) backward.offer(path, document);
    expect(forward.texts).toHaveLength(UNSET_LANGUAGE_SAMPLE_DOCUMENTS);
    expect(backward.texts).toEqual(forward.texts);
    // Spread over the collection, not its first files.
    const kept = new Set(forward.texts.map((t) => Number(/^Side (\d+)/.exec(t)?.[1])));
    expect([...kept].some((i) => i >= UNSET_LANGUAGE_SAMPLE_DOCUMENTS)).toBe(true);
  });

  it("cuts each document to what the detector reads, and keeps none without letters", () => {
    const sample = new LanguageSample();
    sample.offer("docs/numbers.md", { title: "", sections: [{ content: "12 34 -- 56" }] });
    sample.offer(pages[0]!.path, pages[0]!.document);
    expect(sample.texts).toHaveLength(1);
    expect(sample.texts[0]!.startsWith("Side 0\nord ")).toBe(true);
    expect(sample.texts[0]).toHaveLength(DETECTION_SAMPLE_CHARS);
    expect(sample.texts[0]).not.toContain("never");
  });
});

let bot: string;
beforeEach(async () => {
  bot = await mkdtemp(join(tmpdir(), "second-look-unset-language-"));
  await mkdir(join(bot, "no"), { recursive: true });
  await mkdir(join(bot, "en"), { recursive: true });
  for (const [i, text] of NORWEGIAN.entries())
    await writeFile(join(bot, "no", `side-${i}.md`), `# Side ${i}\n\n${text}\n`);
  for (const [i, text] of ENGLISH.entries())
    await writeFile(join(bot, "en", `page-${i}.md`), `# Page ${i}\n\n${text}\n`);
});
afterEach(async () => rm(bot, { recursive: true, force: true }));

describe("indexing a collection that sets no language", () => {
  const line =
    "language: nb (Norwegian Bokmål; detected from 5 of 5 documents; set knowledge.collections.docs.language to fix it)";

  it("analyses it in the language its documents read as, records that with the index, and says so once", async () => {
    const store = new IndexStore(indexDirectory(bot));
    const source = { name: "docs", paths: ["no/**/*.md"] };
    const first = await logLines(() => refreshCollection(bot, source, store));
    expect(first.result.report.added).toBe(5);
    expect(first.result.report.detectedLanguage).toEqual({ tag: "nb", documents: 5, sampled: 5 });
    expect(first.log).toContain(line);
    expect(await store.detection("docs")).toMatchObject({ tag: "nb", analyzer: analyzerFor("nb").id });
    // Searches analyse queries in it too.
    const { engine } = await openEmbeddedEngine(bot, { docs: { paths: ["no/**/*.md"] } });
    expect(engine.collectionIndex("docs")?.analysis.setting).toBe("nb");
    // Detected once: the next run reads nothing, detects nothing, writes nothing.
    const again = await logLines(() => refreshCollection(bot, source, store));
    expect(again.result.report).toMatchObject({ unchanged: 5, written: false });
    expect(again.result.report.detectedLanguage).toEqual({ tag: "nb", documents: 5, sampled: 5 });
    expect(again.log).not.toContain("detected from");
  });

  it("an English collection is indexed as one set to English, each file parsed once", async () => {
    const pool = new IngestPool(ingestLimits({ workers: 1 }));
    try {
      const ingest = vi.spyOn(pool, "ingest");
      const unset = await refreshCollection(
        bot,
        { name: "english", paths: ["en/**/*.md"] },
        new IndexStore(join(bot, "unset")),
        { pool },
      );
      expect(ingest).toHaveBeenCalledTimes(5);
      expect(unset.report.detectedLanguage).toEqual({ tag: "en", documents: 5, sampled: 5 });
      const set = await refreshCollection(
        bot,
        { name: "english", paths: ["en/**/*.md"], language: "en" },
        new IndexStore(join(bot, "set")),
        { pool },
      );
      expect(unset.documents).toEqual(set.documents);
    } finally {
      await pool.close();
    }
  });

  it("a file the sample's parse refused is refused once, not parsed again by the run in the language found", async () => {
    await writeFile(join(bot, "no", "side-unclosed.html"), hostileText.unclosedHtml(2_000));
    const pool = new IngestPool(ingestLimits({ workers: 1 }));
    try {
      const ingest = vi.spyOn(pool, "ingest");
      const { report } = await refreshCollection(
        bot,
        { name: "docs", paths: ["no/**/*"] },
        new IndexStore(join(bot, "index")),
        { pool },
      );
      expect(report.detectedLanguage).toMatchObject({ tag: "nb", documents: 5 });
      expect(report.skipped.map((s) => s.path)).toEqual(["no/side-unclosed.html"]);
      expect(report.skipped[0]?.reason).toMatch(/never closed/);
      const unclosedParses = ingest.mock.calls.filter(([file]) => file.id === "no/side-unclosed.html");
      expect(unclosedParses).toHaveLength(1);
      // The Norwegian pages are parsed twice: in English for the sample, then in Norwegian.
      expect(ingest).toHaveBeenCalledTimes(11);
    } finally {
      await pool.close();
    }
  });

  it("an index an older version built (no record) lends the sample its text: decided without parsing a file", async () => {
    const store = new IndexStore(indexDirectory(bot));
    // What an older version left: the collection indexed as English, no detection recorded.
    await refreshCollection(bot, { name: "docs", paths: ["en/**/*.md"], language: "en" }, store);
    expect(await store.detection("docs")).toBeUndefined();
    const pool = new IngestPool(ingestLimits({ workers: 1 }));
    try {
      const ingest = vi.spyOn(pool, "ingest");
      const { report } = await refreshCollection(bot, { name: "docs", paths: ["en/**/*.md"] }, store, {
        pool,
      });
      expect(ingest).not.toHaveBeenCalled();
      expect(report).toMatchObject({
        unchanged: 5,
        written: true,
        detectedLanguage: { tag: "en", sampled: 5 },
      });
      expect(await store.detection("docs")).toMatchObject({ tag: "en", sampled: 5 });
    } finally {
      await pool.close();
    }
  });

  it("a stop before the sample is read leaves the language undecided and the index answering as it stood", async () => {
    const store = new IndexStore(indexDirectory(bot));
    const source = { name: "docs", paths: ["*/**/*.md"] };
    await refreshCollection(bot, { ...source, language: "en" }, store);
    // New pages in the sample: they must be parsed before the language can be decided.
    for (const [i, text] of NORWEGIAN.entries())
      await writeFile(join(bot, "no", `ny-${i}.md`), `# Ny side ${i}\n\n${text}\n`);
    const stopped = new AbortController();
    stopped.abort();
    const early = await refreshCollection(bot, source, store, { signal: stopped.signal });
    expect(early.report.pending).toBeGreaterThan(0);
    expect(early.report.detectedLanguage).toBeUndefined();
    expect(early.documents).toHaveLength(10);
    expect(await store.detection("docs")).toBeUndefined();
    // The next run that is not stopped decides, and indexes in what it decided.
    const full = await refreshCollection(bot, source, store);
    expect(full.report).toMatchObject({
      pending: 0,
      added: 15,
      detectedLanguage: { tag: "nb", documents: 10, sampled: 15 },
    });
    expect(await store.detection("docs")).toMatchObject({ tag: "nb", analyzer: analyzerFor("nb").id });
  });

  it("a page of a heading and a few words decides nothing: too little text for a verdict", async () => {
    await writeFile(join(bot, "en", "a.md"), "# A\n\nAlpha text.\n");
    const { report } = await refreshCollection(
      bot,
      { name: "tiny", paths: ["en/a.md"] },
      new IndexStore(indexDirectory(bot)),
    );
    expect(report.detectedLanguage).toEqual({ tag: "en", documents: 0, sampled: 0 });
  });

  it("is detected again when its sample changes, and re-indexed only when the sample's majority moved", async () => {
    const store = new IndexStore(indexDirectory(bot));
    const source = { name: "docs", paths: ["no/**/*.md"] };
    await refreshCollection(bot, source, store);
    // A page rewritten in English: the sample changed, its majority did not: no re-index.
    await writeFile(join(bot, "no", "side-0.md"), `# Page\n\n${ENGLISH[0]}\n`);
    const few = await refreshCollection(bot, source, store);
    expect(few.report).toMatchObject({ updated: 1, unchanged: 4 });
    expect(few.report.detectedLanguage).toEqual({ tag: "nb", documents: 4, sampled: 5 });
    // A whole sample's worth of new English pages: the majority moved, so every file is read again in it.
    for (let i = 0; i < UNSET_LANGUAGE_SAMPLE_DOCUMENTS * 2; i++)
      await writeFile(join(bot, "no", `new-${i}.md`), `# Page ${i}\n\n${ENGLISH[i % ENGLISH.length]}\n`);
    const moved = await refreshCollection(bot, source, store);
    expect(moved.report.detectedLanguage?.tag).toBe("en");
    expect(moved.report.added).toBe(5 + UNSET_LANGUAGE_SAMPLE_DOCUMENTS * 2);
    expect(await store.detection("docs")).toMatchObject({ tag: "en", analyzer: analyzerFor("en").id });
  });
});
