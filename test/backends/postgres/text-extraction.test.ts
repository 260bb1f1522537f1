// A PostgreSQL index built from an older text extraction (src/knowledge/documents/text-extraction.ts)
// reads again, on the next `index`, the files whose format a later extraction changed — even
// unchanged ones — and records the version; files of other formats stay as stored, and searches
// answer from the stored text meanwhile. So a loader's fix reaches an upgraded bot without
// re-reading a collection whose formats it did not touch.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import { TEXT_EXTRACTION_VERSION } from "../../../src/knowledge/documents/text-extraction.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../../support/postgres/postgres-server.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL text-extraction tests: ${skipReason}`);

const SCHEMA = "second_look";
const COLLECTIONS = { docs: { paths: ["docs/**/*.html", "docs/**/*.md"] } };
const SPHINX_PAGE = `<html><head><title>pathlib — Object-oriented filesystem paths &#8212; Python 3.11 documentation</title></head>
<body><h1>pathlib — Object-oriented filesystem paths<a class="headerlink" href="#pathlib">¶</a></h1>
<p>Path classes for every operating system.</p></body></html>`;

describe.skipIf(skipReason !== undefined)("PostgreSQL: an index from an older text extraction", () => {
  let server: PostgresServer;
  let root: string;
  let backend: PostgresBackend;

  const sql = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const client = new pg.Client(server.url);
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const titles = async () =>
    (await sql<{ title: string }>(`SELECT title FROM ${SCHEMA}.documents ORDER BY path`)).map((r) => r.title);
  const extraction = async () =>
    (await sql<{ text_extraction: number }>(`SELECT text_extraction FROM ${SCHEMA}.collections`))[0]
      ?.text_extraction;

  beforeAll(async () => {
    server = await startPostgres();
    root = await mkdtemp(join(tmpdir(), "second-look-pg-extraction-"));
    await mkdir(join(root, "docs"), { recursive: true });
    await writeFile(join(root, "docs", "pathlib.html"), SPHINX_PAGE);
    await writeFile(join(root, "docs", "notes.md"), "# Notes\n\nPaths are objects.\n");
    backend = await PostgresBackend.open({
      bot: "kb",
      urlEnv: "TEST_DATABASE_URL",
      schema: SCHEMA,
      collections: COLLECTIONS,
      env: { TEST_DATABASE_URL: server.url },
    });
  }, 120_000);

  afterAll(async () => {
    await backend?.close();
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("records the extraction it indexed with, and re-reads the unchanged HTML files when it is older", async () => {
    const [first] = await backend.refresh(root);
    expect(first).toMatchObject({ added: 2 });
    expect(await extraction()).toBe(TEXT_EXTRACTION_VERSION);
    expect(await titles()).toEqual(["Notes", "pathlib — Object-oriented filesystem paths"]);

    // As a database an older second-look indexed: version 1, and a title with the site's name.
    await sql(`UPDATE ${SCHEMA}.collections SET text_extraction = 1`);
    await sql(
      `UPDATE ${SCHEMA}.documents SET title = title || ' — Python 3.11 documentation' WHERE path LIKE '%.html'`,
    );
    expect((await backend.search({ query: "pathlib" })).results[0]?.title).toContain(
      "Python 3.11 documentation",
    );

    const [again] = await backend.refresh(root);
    // Version 2 changed HTML only: the markdown file stays as it was stored.
    expect(again).toMatchObject({ unchanged: 1, updated: 1 });
    expect(await extraction()).toBe(TEXT_EXTRACTION_VERSION);
    expect(await titles()).toEqual(["Notes", "pathlib — Object-oriented filesystem paths"]);
    expect((await backend.search({ query: "pathlib" })).results[0]?.title).toBe(
      "pathlib — Object-oriented filesystem paths",
    );

    const [third] = await backend.refresh(root);
    expect(third).toMatchObject({ unchanged: 2, updated: 0 });
  }, 120_000);

  it("reads a file that is not UTF-8 and declares no encoding in the one it is recognised to be, and reports it", async () => {
    const notepad =
      "# Canteen\n\nThe café on the ground floor serves crème brûlée on Fridays; the façade of the résumé office next to it is being repainted, and the naïve mural stays.\n";
    await writeFile(join(root, "docs", "canteen.md"), Buffer.from(notepad, "latin1"));
    const [report] = await backend.refresh(root);
    expect(report).toMatchObject({ added: 1, skipped: [] });
    expect(report!.guessedEncodings).toEqual([{ path: "docs/canteen.md", encoding: "windows-1252" }]);
    const hit = (await backend.search({ query: "crème brûlée café" })).results[0];
    expect(hit?.id).toBe("docs/canteen.md");
    expect(hit?.chunks?.map((c) => c.content).join(" ")).toContain("crème brûlée");
  }, 120_000);
});
