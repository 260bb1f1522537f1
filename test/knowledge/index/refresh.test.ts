import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { indexDirectory, openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { CollectionAnalysis } from "../../../src/knowledge/analysis/collection-analysis.js";
import { TEXT_EXTRACTION_VERSION } from "../../../src/knowledge/documents/text-extraction.js";
import { CollectionIndex } from "../../../src/knowledge/index/collection-index.js";
import { IndexStore, STORE_VERSION } from "../../../src/knowledge/index/index-store.js";
import { ingestLimits } from "../../../src/knowledge/index/ingest-limits.js";
import type { IngestPool } from "../../../src/knowledge/index/ingest-pool.js";
import { isTermIds, LexicalIndex, type TermSequence } from "../../../src/knowledge/index/lexical-index.js";
import { refreshCollection, warnOfWhatWasRead } from "../../../src/knowledge/index/refresh.js";
import { logLines } from "../../support/capture-logs.js";
import { xlsxBytes } from "../../support/office-fixtures.js";

/** The analysis id of a collection that names no language. */
const ENGLISH = CollectionAnalysis.of(undefined).id;

let bot: string;
beforeEach(async () => {
  bot = await mkdtemp(join(tmpdir(), "second-look-refresh-"));
  await mkdir(join(bot, "docs"), { recursive: true });
  await writeFile(join(bot, "docs", "pto.md"), "# Vacation\n\n## Allowance\n\nYou get 25 vacation days.\n");
  await writeFile(join(bot, "docs", "sick.md"), "# Sick leave\n\nCall your manager.\n");
});
afterEach(async () => rm(bot, { recursive: true, force: true }));

const source = { name: "handbook", paths: ["docs/**/*.md"] };

/** The handbook collection's manifest, as stored. */
const manifestFileOf = (bot: string) => join(indexDirectory(bot), "handbook.manifest.json");

/** The text extraction the stored manifest records (absent: an index written before it was recorded). */
async function storedExtraction(bot: string): Promise<number | undefined> {
  return JSON.parse(await readFile(manifestFileOf(bot), "utf8")).extraction;
}

/** Records `extraction` in the stored manifest, as an index an older or newer version wrote (undefined: none at all). */
async function recordExtraction(bot: string, extraction: number | undefined): Promise<void> {
  const { extraction: _, ...manifest } = JSON.parse(await readFile(manifestFileOf(bot), "utf8"));
  await writeFile(
    manifestFileOf(bot),
    JSON.stringify(extraction === undefined ? manifest : { ...manifest, extraction }),
  );
}

describe("refreshCollection", () => {
  it("indexes every matching file on the first run and persists it", async () => {
    const store = new IndexStore(indexDirectory(bot));
    const { documents, report } = await refreshCollection(bot, source, store);
    expect(documents.map((d) => d.id).sort()).toEqual(["docs/pto.md", "docs/sick.md"]);
    expect(report).toMatchObject({ files: 2, added: 2, updated: 0, removed: 0, written: true });
    expect((await store.load("handbook", ENGLISH))?.map((d) => d.id).sort()).toEqual([
      "docs/pto.md",
      "docs/sick.md",
    ]);
  });

  it("reuses unchanged files, re-reads changed ones and drops deleted ones", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    const again = await refreshCollection(bot, source, store);
    expect(again.report).toMatchObject({ unchanged: 2, added: 0, updated: 0, removed: 0, written: false });

    await writeFile(join(bot, "docs", "pto.md"), "# Vacation\n\n## Allowance\n\nYou get 30 vacation days.\n");
    await rm(join(bot, "docs", "sick.md"));
    await writeFile(join(bot, "docs", "travel.md"), "# Travel\n\nBook through the portal.\n");
    const third = await refreshCollection(bot, source, store);
    expect(third.report).toMatchObject({ added: 1, updated: 1, removed: 1, written: true });
    expect(third.documents.find((d) => d.id === "docs/pto.md")?.sections.at(-1)?.content).toContain(
      "30 vacation days",
    );
  });

  it("a touched file with the same content is recognised by its hash and not re-analysed", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    const later = new Date(Date.now() + 60_000);
    await utimes(join(bot, "docs", "pto.md"), later, later);
    const { report } = await refreshCollection(bot, source, store);
    expect(report).toMatchObject({ unchanged: 2, touched: 1, updated: 0, written: true });
    // The new time was recorded: the next run does not read the file again.
    const again = await refreshCollection(bot, source, store);
    expect(again.report).toMatchObject({ unchanged: 2, touched: 0, written: false });
  });

  it("hands back the lexical index of the documents as they stand: the one stored, or the one a save just wrote", async () => {
    const store = new IndexStore(indexDirectory(bot));
    const ranksAsBuilt = (refreshed: Awaited<ReturnType<typeof refreshCollection>>) => {
      const build = vi.spyOn(LexicalIndex, "build");
      const fromImage = new CollectionIndex("handbook", refreshed.documents, { image: refreshed.image! });
      // The image fits the documents: nothing is built.
      expect(build).not.toHaveBeenCalled();
      build.mockRestore();
      const built = new CollectionIndex("handbook", refreshed.documents);
      const query = built.lexical.queryStats(["vacat", "day", "manag"]);
      expect(fromImage.lexical.search(query, 10)).toEqual(built.lexical.search(query, 10));
      expect(fromImage.lexical.image()).toEqual(built.lexical.image());
    };
    // The first run's save wrote the index: handed back with the documents, their terms as its ids.
    const first = await refreshCollection(bot, source, store);
    expect(first.image).toBeDefined();
    expect(first.documents.every((d) => d.sections.every((s) => isTermIds(s.bodyTerms)))).toBe(true);
    ranksAsBuilt(first);
    const unchanged = await refreshCollection(bot, source, store);
    expect(unchanged.report.written).toBe(false);
    expect(unchanged.image).toBeDefined();
    ranksAsBuilt(unchanged);
    const later = new Date(Date.now() + 60_000);
    await utimes(join(bot, "docs", "pto.md"), later, later);
    expect((await refreshCollection(bot, source, store)).image).toBeDefined();
    await writeFile(join(bot, "docs", "sick.md"), "# Sick leave\n\nCall your manager first.\n");
    const changed = await refreshCollection(bot, source, store);
    expect(changed.report.updated).toBe(1);
    expect(changed.image).toBeDefined();
    expect(changed.documents.find((d) => d.id === "docs/sick.md")?.sections[0]?.content).toContain("first");
    ranksAsBuilt(changed);
  });

  it("hands back no index for a collection stored in several segments, but its documents' terms as ids", async () => {
    const store = new IndexStore(indexDirectory(bot), 1);
    const first = await refreshCollection(bot, source, store);
    expect(first.report.written).toBe(true);
    expect(first.image).toBeUndefined();
    expect(first.documents.map((d) => d.id).sort()).toEqual(["docs/pto.md", "docs/sick.md"]);
    expect(first.documents.every((d) => d.sections.every((s) => isTermIds(s.titleTerms)))).toBe(true);
    const reloaded = await store.load("handbook", ENGLISH);
    const terms = (sequence: TermSequence) =>
      isTermIds(sequence) ? Array.from(sequence.ids, (id) => sequence.vocabulary[id]) : sequence;
    const termsOf = (documents: typeof first.documents) =>
      documents.map((d) => d.sections.map((s) => [terms(s.titleTerms), terms(s.bodyTerms)]));
    expect(termsOf(first.documents)).toEqual(termsOf(reloaded!));
  });

  it("skips a binary or non-UTF-8 file with a reason naming it, and indexes the rest", async () => {
    await writeFile(join(bot, "docs", "broken.md"), Buffer.from([0x23, 0x20, 0xe6, 0xf8, 0xe5, 0x0a]));
    await writeFile(join(bot, "docs", "blob.md"), Buffer.from([0x00, 0x01, 0x02]));
    const { documents, report } = await refreshCollection(bot, source, new IndexStore(indexDirectory(bot)));
    expect(documents.map((d) => d.id).sort()).toEqual(["docs/pto.md", "docs/sick.md"]);
    expect(report.skipped.map((s) => s.path).sort()).toEqual(["docs/blob.md", "docs/broken.md"]);
    expect(report.skipped.every((s) => s.reason.length > 0)).toBe(true);
  });

  it("reads a file that is not UTF-8 and declares no encoding in the one it is recognised to be, and says so", async () => {
    const notepad =
      "# Urlaub\n\nJeder Mitarbeiter bekommt 30 Urlaubstage im Jahr. Die Größe des Teams ändert daran nichts; über Ausnahmen entscheidet die Geschäftsführung.\n";
    await writeFile(join(bot, "docs", "urlaub.md"), Buffer.from(notepad, "latin1"));
    const { result, log } = await logLines(async () => {
      const refreshed = await refreshCollection(bot, source, new IndexStore(indexDirectory(bot)));
      warnOfWhatWasRead("handbook", refreshed.report);
      return refreshed;
    });
    const urlaub = result.documents.find((d) => d.id === "docs/urlaub.md");
    expect(urlaub?.sections.map((s) => s.content).join("\n")).toContain(
      "Die Größe des Teams ändert daran nichts",
    );
    expect(result.report.skipped).toEqual([]);
    expect(result.report.guessedEncodings).toEqual([{ path: "docs/urlaub.md", encoding: "windows-1252" }]);
    expect(log).toMatch(
      /read docs\/urlaub\.md as windows-1252: it is not valid UTF-8 and declares no encoding/,
    );
  });

  it("never indexes its own state folder, and honours excludes", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, { name: "all", paths: ["**/*"] }, store);
    const { documents } = await refreshCollection(
      bot,
      { name: "all", paths: ["**/*"], exclude: ["docs/sick.md"] },
      store,
    );
    expect(documents.map((d) => d.id)).toEqual(["docs/pto.md"]);
  });

  it("a corrupt or foreign-version store is rebuilt, not misread", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    await writeFile(join(indexDirectory(bot), "handbook.manifest.json"), "{not json");
    const { report } = await refreshCollection(bot, source, store);
    expect(report).toMatchObject({ added: 2, written: true });
    const file = JSON.parse(await readFile(join(indexDirectory(bot), "handbook.manifest.json"), "utf8"));
    expect(file.version).toBe(STORE_VERSION);
  });

  it("an index of store version 2 (JSON segments) is read as it is and rewritten in the current version", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    const { records, manifestFile } = await rewriteAsVersion2(store);
    expect(await store.inspect("handbook", ENGLISH)).toMatchObject({ state: "loaded", version: 2 });
    const { result, log } = await logLines(() => refreshCollection(bot, source, store));
    expect(result.report).toMatchObject({ unchanged: 2, added: 0, updated: 0, written: true });
    expect(log).toMatch(/collection handbook: stored index rewritten in store version 3 \(was 2\)/);
    expect(JSON.parse(await readFile(manifestFile, "utf8")).version).toBe(STORE_VERSION);
    const reloaded = (await store.load("handbook", ENGLISH))!;
    expect(reloaded.map((d) => d.sections.map((s) => [packed(s.titleTerms), packed(s.bodyTerms)]))).toEqual(
      records.map((d) => d.sections.map((s) => [s.titleTerms, s.bodyTerms])),
    );
    const again = await refreshCollection(bot, source, store);
    expect(again.report).toMatchObject({ unchanged: 2, written: false });
  });

  it("a version-2 index's record of its detected language is kept, not decided again, when rewritten in the current version", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    const decided = (await store.detection("handbook"))!;
    expect(decided).toMatchObject({ tag: "en", analyzer: ENGLISH });
    // Counts no detection of these two files arrives at: only a record read back can hold them.
    const { analyzer: _, ...record } = { ...decided, documents: 7, sampled: 9 };
    const { manifestFile } = await rewriteAsVersion2(store, record);
    const { report } = await refreshCollection(bot, source, store);
    expect(report).toMatchObject({
      unchanged: 2,
      written: true,
      detectedLanguage: { tag: "en", documents: 7 },
    });
    const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
    expect(manifest).toMatchObject({ version: STORE_VERSION, detected: record });
    expect(await store.detection("handbook")).toEqual({ ...record, analyzer: ENGLISH });
  });

  it("an index from an older text extraction re-reads the files of the formats it changed, keeps the rest, and says so", async () => {
    const rows = [["Part", "Price"], ...Array.from({ length: 300 }, (_, i) => [`Part ${i}`, `${i}.50`])];
    await writeFile(join(bot, "docs", "prices.xlsx"), xlsxBytes([{ name: "Prices", rows }]));
    await writeFile(join(bot, "docs", "notes.txt"), "Notes\n\nKeep receipts for seven years.\n");
    const both = { name: "handbook", paths: ["docs/**/*.{md,xlsx,txt}"] };
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, both, store);
    expect(await storedExtraction(bot)).toBe(TEXT_EXTRACTION_VERSION);
    // As the version before spreadsheets' parts each opened with the first row wrote it: the
    // sheet is read again, the Markdown pages and the text file (last changed in version 4) kept.
    await recordExtraction(bot, 4);
    expect(await store.inspect("handbook", ENGLISH)).toMatchObject({ state: "loaded", extractedBy: 4 });
    const { result, log } = await logLines(() => refreshCollection(bot, both, store));
    expect(result.report).toMatchObject({ updated: 1, unchanged: 3, added: 0, written: true });
    expect(log).toContain(
      `collection handbook was indexed from text extraction 4; this version extracts text as version ${TEXT_EXTRACTION_VERSION}: re-reading the files whose format it changed`,
    );
    // The sheet as this version reads it: every part opens with its column names.
    const sheet = result.documents.find((d) => d.id === "docs/prices.xlsx")!;
    expect(sheet.sections.length).toBeGreaterThan(2);
    expect(sheet.sections.every((section) => section.content.startsWith("Part | Price\n"))).toBe(true);
    expect(await storedExtraction(bot)).toBe(TEXT_EXTRACTION_VERSION);
    const again = await refreshCollection(bot, both, store);
    expect(again.report).toMatchObject({ unchanged: 4, updated: 0, written: false });
  });

  it("an index from an older extraction of formats it does not hold is rewritten with nothing read", async () => {
    await writeFile(join(bot, "docs", "rates.csv"), "City,Per diem\nOslo,80\nLyon,65\n");
    await writeFile(join(bot, "docs", "codes.tsv"), "Code\tMeaning\nT1\tTravel\n");
    const source = { name: "handbook", paths: ["docs/**/*.{csv,tsv}"] };
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    // As an index written before the extraction was recorded: no field at all (version 1).
    await recordExtraction(bot, undefined);
    expect(await store.inspect("handbook", ENGLISH)).toMatchObject({ state: "loaded", extractedBy: 1 });
    const { report } = await refreshCollection(bot, source, store);
    // No version changed how tables kept as text are read.
    expect(report).toMatchObject({ unchanged: 2, updated: 0, added: 0, written: true });
    expect(await storedExtraction(bot)).toBe(TEXT_EXTRACTION_VERSION);
  });

  it("a run stopped before it read every file records the older extraction, so the next run reads the rest", async () => {
    await writeFile(join(bot, "docs", "notes.txt"), "Notes\n\nKeep receipts for seven years.\n");
    await writeFile(
      join(bot, "docs", "rota.html"),
      "<html><body><h1>Rota</h1><p>Weekend shifts rotate.</p></body></html>",
    );
    const withText = { name: "handbook", paths: ["docs/**/*.{md,txt,html}"] };
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, withText, store);
    // HTML was read differently since version 5 (its headings' ids), Markdown and text files were not.
    await recordExtraction(bot, 5);
    const stopped = await refreshCollection(bot, withText, store, { signal: AbortSignal.abort() });
    expect(stopped.report).toMatchObject({ pending: 4, updated: 0 });
    expect(await storedExtraction(bot)).toBe(5);
    const { report } = await refreshCollection(bot, withText, store);
    expect(report).toMatchObject({ updated: 1, unchanged: 3, pending: 0 });
    expect(await storedExtraction(bot)).toBe(TEXT_EXTRACTION_VERSION);
  });

  it("an index a newer version's extraction wrote is re-indexed from every file, and says so", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    await recordExtraction(bot, TEXT_EXTRACTION_VERSION + 1);
    expect(await store.inspect("handbook", ENGLISH)).toEqual({
      state: "stale",
      builtWith: `text extraction ${TEXT_EXTRACTION_VERSION + 1}`,
      cause: "extraction",
    });
    const { result, log } = await logLines(() => refreshCollection(bot, source, store));
    expect(result.report).toMatchObject({ added: 2, written: true });
    expect(log).toMatch(/indexed by a newer version \(text extraction \d+; [^)]*\): re-indexing every file/);
    expect(await storedExtraction(bot)).toBe(TEXT_EXTRACTION_VERSION);
  });
});

describe("openEmbeddedEngine", () => {
  it("opens a searchable engine from the bot's files", async () => {
    const { engine, reports } = await openEmbeddedEngine(bot, { handbook: { paths: ["docs/**/*.md"] } });
    expect(reports[0]!.files).toBe(2);
    const r = await engine.search({ query: "vacation days" });
    expect(r.results[0]).toMatchObject({ collection: "handbook", id: "docs/pto.md", heading: "Allowance" });
  });
});

describe("refreshCollection: a failure of the install is not remembered against the file", () => {
  // A pool standing in for the parser threads: every file fails, as it would with pdf.js missing
  // from the install (notTheFile) or with a parser refusing the file itself.
  const failingPool = (notTheFile: boolean) =>
    ({
      limits: ingestLimits(),
      ingest: async () =>
        notTheFile
          ? { ok: false, reason: "pdf parser failed: pdf.js is missing", notTheFile: true }
          : { ok: false, reason: "markdown parser failed: too deep" },
    }) as unknown as IngestPool;

  it("reports the skip but keeps no record of it, so the next run with a working install reads the files", async () => {
    const store = new IndexStore(indexDirectory(bot));
    const broken = await refreshCollection(bot, source, store, { pool: failingPool(true) });
    expect(broken.report.skipped.map((s) => s.reason)).toEqual([
      "pdf parser failed: pdf.js is missing",
      "pdf parser failed: pdf.js is missing",
    ]);
    const found = await store.inspect("handbook", ENGLISH);
    expect(found.state === "loaded" ? found.skipped : "no index").toEqual([]);
    const repaired = await refreshCollection(bot, source, store);
    expect(repaired.report).toMatchObject({ added: 2, skipped: [] });
  });

  it("a file of a type no loader reads is skipped by its name and never remembered", async () => {
    await writeFile(join(bot, "docs", "diagram.xyz"), "not a document");
    await writeFile(join(bot, "docs", "LICENSE"), "no extension");
    const store = new IndexStore(indexDirectory(bot));
    const everything = { name: "handbook", paths: ["docs/**/*"] };
    const first = await refreshCollection(bot, everything, store);
    expect(first.report).toMatchObject({ added: 2 });
    expect(first.report.skipped).toEqual([
      { path: "docs/LICENSE", reason: "unsupported file type (no extension)" },
      { path: "docs/diagram.xyz", reason: 'unsupported file type ".xyz"' },
    ]);
    const found = await store.inspect("handbook", ENGLISH);
    expect(found.state === "loaded" ? found.skipped : "no index").toEqual([]);
  });

  it("a file an older loader refused by its type is read once its type is (gzip-compressed Markdown)", async () => {
    await writeFile(
      join(bot, "docs", "travel.md.gz"),
      gzipSync("# Travel\n\nBook trains through the portal.\n"),
    );
    const store = new IndexStore(indexDirectory(bot));
    const everything = { name: "handbook", paths: ["docs/**/*"] };
    // The loader before gzip: the same refusal by type that index remembered.
    const olderLoader = {
      limits: ingestLimits(),
      ingest: async (file: { id: string }) =>
        file.id.endsWith(".gz")
          ? { ok: false, reason: 'unsupported file type ".gz"' }
          : { ok: false, reason: "markdown parser failed: too deep" },
    } as unknown as IngestPool;
    await refreshCollection(bot, everything, store, { pool: olderLoader });
    const remembered = await store.inspect("handbook", ENGLISH);
    expect(remembered.state === "loaded" ? remembered.skipped.map((s) => s.path).sort() : []).toEqual([
      "docs/pto.md",
      "docs/sick.md",
      "docs/travel.md.gz",
    ]);
    const now = await refreshCollection(bot, everything, store);
    // The refusals by the file's own failure stand (nothing changed); the one by type does not.
    expect(now.report.added).toBe(1);
    expect(now.report.skipped.map((s) => s.path).sort()).toEqual(["docs/pto.md", "docs/sick.md"]);
    expect(now.documents.map((d) => d.id)).toEqual(["docs/travel.md.gz"]);
  });

  it("a file's own failure is remembered (refused again without a parse until it changes)", async () => {
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store, { pool: failingPool(false) });
    const found = await store.inspect("handbook", ENGLISH);
    expect(found.state === "loaded" ? found.skipped.map((s) => s.path).sort() : "no index").toEqual([
      "docs/pto.md",
      "docs/sick.md",
    ]);
  });
});

/** A stored sequence's terms joined by spaces: version 2's packed form. */
const packed = (terms: TermSequence) =>
  isTermIds(terms) ? Array.from(terms.ids, (id) => terms.vocabulary[id]).join(" ") : terms;

/**
 * The stored index of `handbook` replaced by the same index as version 2 wrote it (one JSON array
 * of documents with packed terms), with `detected` recorded in its manifest when given.
 */
async function rewriteAsVersion2(store: IndexStore, detected?: object) {
  const documents = (await store.load("handbook", ENGLISH))!;
  const records = documents.map((d) => ({
    ...d,
    sections: d.sections.map((s) => ({
      ...s,
      titleTerms: packed(s.titleTerms),
      bodyTerms: packed(s.bodyTerms),
    })),
  }));
  const directory = store.directory;
  for (const file of await readdir(directory)) await rm(join(directory, file));
  const bytes = Buffer.from(JSON.stringify(records), "utf8");
  await writeFile(join(directory, "handbook.1-00000000.0.seg"), bytes);
  const manifestFile = join(directory, "handbook.manifest.json");
  await writeFile(
    manifestFile,
    JSON.stringify({
      version: 2,
      analyzer: ENGLISH,
      ...(detected ? { detected } : {}),
      extraction: TEXT_EXTRACTION_VERSION,
      collection: "handbook",
      documents: records.length,
      segments: [
        {
          file: "handbook.1-00000000.0.seg",
          bytes: bytes.length,
          documents: records.length,
          sha256: createHash("sha256").update(bytes).digest("hex"),
        },
      ],
      skipped: [],
    }),
  );
  return { records, manifestFile };
}
