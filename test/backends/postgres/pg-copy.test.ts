import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyField } from "../../../src/backends/postgres/pg-copy.js";
import { migrate, tablesIn } from "../../../src/backends/postgres/pg-schema.js";
import { ensureCollection, replaceDocuments } from "../../../src/backends/postgres/pg-writer.js";
import { CollectionAnalysis } from "../../../src/knowledge/analysis/collection-analysis.js";
import { analyzeDocument } from "../../../src/knowledge/index/collection-index.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../../support/postgres/postgres-server.js";
import { storeInvariants } from "../../support/postgres/store-invariants.js";

/** The analysis id of a collection that names no language. */
const ENGLISH = CollectionAnalysis.of(undefined).id;

describe("copyField", () => {
  it("escapes what COPY's text format gives a meaning to, and nothing else", () => {
    expect(copyField("plain words, ünïcode — and 'quotes'")).toBe("plain words, ünïcode — and 'quotes'");
    expect(copyField("a\tb\nc\rd\\e")).toBe("a\\tb\\nc\\rd\\\\e");
    expect(copyField("\\N")).toBe("\\\\N");
    expect(copyField(null)).toBe("\\N");
    expect(copyField(0.36498713)).toBe("0.36498713");
    expect(() => copyField(Number.NaN)).toThrow(/not a finite number/);
  });
});

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL COPY tests: ${skipReason}`);

describe.skipIf(skipReason)("sections and postings written with COPY", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("stores text with tabs, line breaks, backslashes and \\N exactly as given", async () => {
    const content = "Column\tvalue\r\nC:\\temp\\new \\N is not null\n\n  indented ünïcode ✓";
    const heading = "A\theading \\ with\nbreaks";
    const document = analyzeDocument({
      id: "docs/odd.md",
      title: "Odd\ttitle",
      sections: [
        { headingPath: ["Odd\ttitle", heading], heading, level: 2, content },
        { headingPath: ["Odd\ttitle"], content: "\\" },
      ],
    });
    // The analyser keeps the text as given, so what is stored must be it to the character.
    expect(document.sections[0]!.content).toBe(content);
    const client = new pg.Client(server.url);
    await client.connect();
    try {
      const writer = client as unknown as pg.PoolClient;
      await migrate(writer, "copied");
      const t = tablesIn("copied");
      const { id } = await ensureCollection(writer, t, "bot", "docs", ENGLISH);
      await replaceDocuments(writer, t, id, [
        { path: document.id, size: 1, mtimeMs: 1, contentHash: "h", document },
      ]);
      const stored = await client.query(
        "SELECT heading_path, heading, level, content, title_terms, body_terms FROM copied.sections ORDER BY ord",
      );
      expect(stored.rows).toEqual(
        document.sections.map((s) => ({
          heading_path: s.headingPath,
          heading: s.heading ?? null,
          level: s.level ?? null,
          content: s.content,
          title_terms: s.titleTerms.join(" "),
          body_terms: s.bodyTerms.join(" "),
        })),
      );
      expect(await storeInvariants(server.url, "copied")).toEqual([]);
    } finally {
      await client.end();
    }
  }, 60_000);
});
