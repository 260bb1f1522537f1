// An "auto" collection (`"language": "auto"`) of English and Norwegian Bokmål pages on both
// backends: the parser threads detect each document's language and analyse it in that language,
// PostgreSQL records it per document and counts the collection's documents per language
// (src/backends/postgres/pg-schema.ts version 8), and a query is analysed in every language
// holding enough of the documents (src/knowledge/analysis/collection-analysis.ts, the rule the
// embedded engine uses) — so the SearchResponses equal the embedded engine's.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import type { BotConfig } from "../../../src/bots/config-schema.js";
import { collectionLanguages } from "../../../src/connectors/collection-languages.js";
import { logLines } from "../../support/capture-logs.js";
import { indexPagesBot, PAGES_BOT_SCHEMA, type PagesBot } from "../../support/postgres/pages-bot.js";
import { type PostgresServer, postgresUnavailableReason } from "../../support/postgres/postgres-server.js";
import { storeInvariants } from "../../support/postgres/store-invariants.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL auto language tests: ${skipReason}`);

const SCHEMA = PAGES_BOT_SCHEMA;
const COLLECTIONS = { handbook: { paths: ["docs/**/*.md"], language: "auto" } };

const ENGLISH = {
  "vpn.md": `# VPN access

Employees connect to the office network through the VPN client. Install the client from the
self-service portal, then sign in with your company account and approve the request on your phone.
`,
  "expenses.md": `# Travel expenses

Submit your travel expenses within one month of returning. Attach the receipts for every hotel
night and train ticket; meals are refunded at the daily allowance.
`,
  "laptops.md": `# Laptops

Every new employee receives a laptop on the first day. Broken laptops are replaced by the service
desk, which also installs the printers and the software you need for your work.
`,
};

const NORWEGIAN = {
  "ferie.md": `# Ferie

Alle ansatte har rett på fem uker ferie i året. Søknaden om ferie sendes til nærmeste leder senest
fire uker før ferien starter, og lederen svarer innen en uke.
`,
  "sykdom.md": `# Sykdom

Hvis du er syk, må du gi beskjed til lederen din før arbeidsdagen begynner. Fra den fjerde dagen
trenger du en sykmelding fra legen, og den sendes til personalavdelingen.
`,
};

/** English and Norwegian questions, worded otherwise than the pages, and one no page answers. */
const QUERIES = [
  "søknader om ferien",
  "sykmeldinger fra legen",
  "installing the vpn clients",
  "refunds of hotel receipts",
  "replacing a broken laptop",
  "aksjeopsjoner og bindingstid",
];

describe.skipIf(skipReason !== undefined)(
  "an auto collection of English and Norwegian pages on PostgreSQL",
  () => {
    let bot: PagesBot;
    let server: PostgresServer;
    let botDir: string;
    let backend: PostgresBackend;

    const sql = async <T extends pg.QueryResultRow>(text: string): Promise<T[]> => {
      const client = new pg.Client(server.url);
      await client.connect();
      try {
        return (await client.query<T>(text)).rows;
      } finally {
        await client.end();
      }
    };
    const languageCounts = async () =>
      Object.fromEntries(
        (
          await sql<{ language: string; documents: string }>(
            `SELECT language, documents FROM ${SCHEMA}.collection_languages ORDER BY language`,
          )
        ).map((r) => [r.language, Number(r.documents)]),
      );

    beforeAll(async () => {
      bot = await indexPagesBot("handbook", { ...ENGLISH, ...NORWEGIAN }, COLLECTIONS);
      ({ server, botDir, backend } = bot);
    }, 120_000);

    afterAll(async () => bot?.stop());

    it("records each document's detected language and the collection's documents per language", async () => {
      const rows = await sql<{ path: string; language: string }>(
        `SELECT path, language FROM ${SCHEMA}.documents ORDER BY path`,
      );
      expect(Object.fromEntries(rows.map((r) => [r.path, r.language]))).toEqual({
        "docs/expenses.md": "en",
        "docs/ferie.md": "nb",
        "docs/laptops.md": "en",
        "docs/sykdom.md": "nb",
        "docs/vpn.md": "en",
      });
      expect(await languageCounts()).toEqual({ en: 3, nb: 2 });
      expect(await storeInvariants(server.url, SCHEMA)).toEqual([]);
    });

    it("analyses each page in its own language and each query in both", async () => {
      // Norwegian inflections meet Norwegian stems, English ones English stems, in one collection.
      expect((await backend.search({ query: "søknader om ferien" })).results[0]?.id).toBe("docs/ferie.md");
      expect((await backend.search({ query: "sykmeldinger fra legen" })).results[0]?.id).toBe(
        "docs/sykdom.md",
      );
      expect((await backend.search({ query: "installing the vpn clients" })).results[0]?.id).toBe(
        "docs/vpn.md",
      );
    });

    it("gives the embedded engine's SearchResponses", async () => {
      const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
      expect(Object.fromEntries(engine.collectionIndex("handbook")!.languages)).toEqual(
        await languageCounts(),
      );
      for (const query of QUERIES) {
        for (const request of [{ query }, { query, rerank: false }, { query, brief: true, limit: 2 }]) {
          expect(await backend.search(request), JSON.stringify(request)).toEqual(
            await engine.search(request),
          );
        }
      }
    });

    it("names the collection's languages to the model as the embedded engine does, from open on", async () => {
      const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
      const config = (backend: "embedded" | "postgres") =>
        ({
          knowledge: { backend, postgres: { urlEnv: "TEST_DATABASE_URL" }, collections: COLLECTIONS },
        }) as unknown as Pick<BotConfig, "knowledge">;
      const embedded = collectionLanguages(config("embedded"), engine);
      expect(embedded.handbook?.tags).toEqual(["en", "nb"]);
      expect(collectionLanguages(config("postgres"), backend)).toEqual(embedded);
      // A process that only opened the database, before any search, knows them too.
      const opened = await bot.open();
      try {
        expect(collectionLanguages(config("postgres"), opened)).toEqual(embedded);
      } finally {
        await opened.close();
      }
    });

    it("keeps the language counts as pages change language, go and come, and still answers as embedded", async () => {
      // A Norwegian page rewritten in English, one removed, one added: the counts follow.
      await writeFile(
        join(botDir, "docs", "ferie.md"),
        ENGLISH["vpn.md"].replace("VPN access", "Remote access"),
      );
      await rm(join(botDir, "docs", "sykdom.md"));
      await writeFile(
        join(botDir, "docs", "lonn.md"),
        `# Lønn

Lønnen utbetales den tjuende hver måned. Endringer i kontonummer meldes til lønningskontoret
innen den femte, ellers kommer de først med i neste måneds utbetaling.
`,
      );
      const [report] = await backend.refresh(botDir);
      expect(report).toMatchObject({ added: 1, updated: 1, removed: 1 });
      expect(await languageCounts()).toEqual({ en: 4, nb: 1 });
      expect(await storeInvariants(server.url, SCHEMA)).toEqual([]);
      const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
      for (const query of [...QUERIES, "endringer i kontonumre"]) {
        expect(await backend.search({ query }), query).toEqual(await engine.search({ query }));
      }
    });

    // Last: it adds a collection to the bot's database.
    it("a collection that sets no language and reads as Norwegian: analysed, recorded and searched as Norwegian", async () => {
      const open = () =>
        PostgresBackend.open({
          bot: "handbook",
          urlEnv: "TEST_DATABASE_URL",
          schema: SCHEMA,
          collections: { norsk: { paths: ["docs/lonn.md"] } },
          env: { TEST_DATABASE_URL: server.url },
        });
      const unset = await open();
      try {
        const { result, log } = await logLines(() => unset.refresh(botDir));
        expect(result[0]).toMatchObject({
          added: 1,
          detectedLanguage: { tag: "nb", documents: 1, sampled: 1 },
        });
        expect(log).toContain(
          "language: nb (Norwegian Bokmål; detected from 1 of 1 documents; set knowledge.collections.norsk.language to fix it)",
        );
        // Recorded: the next run detects nothing and reads nothing.
        const again = await logLines(() => unset.refresh(botDir));
        expect(again.result[0]).toMatchObject({ added: 0, detectedLanguage: { tag: "nb" } });
        expect(again.log).not.toContain("detected from");
      } finally {
        await unset.close();
      }
      // Another process serving the bot searches it as the embedded engine does, in Norwegian.
      const reopened = await open();
      try {
        expect(reopened.detectedLanguage("norsk")).toEqual({ tag: "nb", documents: 1, sampled: 1 });
        const { engine } = await openEmbeddedEngine(botDir, { norsk: { paths: ["docs/lonn.md"] } });
        expect(engine.collectionIndex("norsk")?.analysis.setting).toBe("nb");
        const query = "endringer i kontonumre";
        expect(await reopened.search({ query })).toEqual(await engine.search({ query }));
      } finally {
        await reopened.close();
      }
    });

    // Last too: it adds a collection of its own.
    it("a collection that sets no language is detected again when its sample changes, and re-indexed only when its majority moved", async () => {
      const folder = join(botDir, "moving");
      await mkdir(folder, { recursive: true });
      for (const [name, text] of Object.entries(NORWEGIAN)) await writeFile(join(folder, name), text);
      const open = () =>
        PostgresBackend.open({
          bot: "handbook",
          urlEnv: "TEST_DATABASE_URL",
          schema: SCHEMA,
          collections: { moving: { paths: ["moving/**/*.md"] } },
          env: { TEST_DATABASE_URL: server.url },
        });
      const moving = await open();
      try {
        const [first] = await moving.refresh(botDir);
        expect(first).toMatchObject({ added: 2, detectedLanguage: { tag: "nb", documents: 2, sampled: 2 } });
        // One page rewritten in English: the sample changed, its majority did not (one of two
        // reads as Norwegian: a third is enough), so that file alone is read, in Norwegian.
        await writeFile(join(folder, "ferie.md"), ENGLISH["vpn.md"]);
        const { result, log } = await logLines(() => moving.refresh(botDir));
        expect(result[0]).toMatchObject({ added: 0, updated: 1, unchanged: 1 });
        expect(result[0]!.detectedLanguage).toMatchObject({ tag: "nb", documents: 1, sampled: 2 });
        expect(log).not.toContain("re-indexing every file");
        // Three more English pages: most of the sample reads as English now, so every file is
        // read again in English, and the record says so to every process.
        for (const [name, text] of Object.entries(ENGLISH))
          await writeFile(join(folder, `more-${name}`), text);
        const moved = await logLines(() => moving.refresh(botDir));
        expect(moved.result[0]).toMatchObject({
          added: 5,
          detectedLanguage: { tag: "en", documents: 4, sampled: 5 },
        });
        expect(moved.log).toContain("most sampled documents now read as en, not nb: re-indexing every file");
        // Unchanged since: nothing read, nothing detected.
        const again = await logLines(() => moving.refresh(botDir));
        expect(again.result[0]).toMatchObject({ added: 0, updated: 0, unchanged: 5 });
        expect(again.log).not.toContain("re-indexing");
      } finally {
        await moving.close();
      }
      const reopened = await open();
      try {
        expect(reopened.detectedLanguage("moving")).toMatchObject({ tag: "en" });
        const { engine } = await openEmbeddedEngine(botDir, { moving: { paths: ["moving/**/*.md"] } });
        for (const query of QUERIES)
          expect(await reopened.search({ query }), query).toEqual(await engine.search({ query }));
      } finally {
        await reopened.close();
      }
    });
  },
);
