// Links to the source: a collection's `url` template (with extension rewriting and its root),
// a document's own address (front matter, canonical link) first, only http(s) kept — carried by
// hits, get_document, the text the model reads, structuredContent and the citations a chat host
// shows.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotConfigInput, BotConfigSchema } from "../../src/bots/config-schema.js";
import { openBotBackend } from "../../src/connectors/open-bot-backend.js";
import { documentsInSearchText } from "../../src/hosts/cited-documents.js";
import { DocumentLinks, staticRoot } from "../../src/knowledge/document-links.js";
import { safeHttpUrl } from "../../src/knowledge-tool/safe-url.js";
import type { Hit, KnowledgeBackend, SearchResponse } from "../../src/types.js";
import { callAndRead } from "../support/mcp-call.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../support/postgres/postgres-server.js";
import { connectInMemory } from "./mcp/mcp-harness.js";

describe("DocumentLinks", () => {
  it("fills the template with the path under the collection's root, rewriting the extension and encoding each segment", () => {
    const links = DocumentLinks.of({
      docs: {
        paths: ["site/docs/**/*.md", "site/docs/*.pdf"],
        url: { template: "https://docs.example.com/{path}", extensions: { ".md": ".html", ".MDX": "" } },
      },
      plain: { paths: ["notes/**/*.md"], url: "https://wiki.example.org/pages/{path}" },
      none: { paths: ["other/*.md"] },
    });
    expect(links.linkFor("docs", "site/docs/guide/intro.md")).toBe(
      "https://docs.example.com/guide/intro.html",
    );
    expect(links.linkFor("docs", "site/docs/manual.pdf")).toBe("https://docs.example.com/manual.pdf");
    expect(links.linkFor("docs", "site/docs/a b/c#d?.md")).toBe(
      "https://docs.example.com/a%20b/c%23d%3F.html",
    );
    expect(links.linkFor("plain", "notes/x.md")).toBe("https://wiki.example.org/pages/x.md");
    expect(links.linkFor("none", "other/x.md")).toBeUndefined();
  });

  it("rewrites the longest listed extension a name ends with: a compressed page's, before its last", () => {
    const links = DocumentLinks.of({
      pkg: {
        paths: ["documents/**/*.{md,md.gz,gz}"],
        url: {
          template: "https://pip.example.org/{path}",
          extensions: { ".md": ".html", ".MD.GZ": ".html", ".gz": "" },
        },
      },
    });
    expect(links.linkFor("pkg", "documents/topics/secure-installs.md.gz")).toBe(
      "https://pip.example.org/topics/secure-installs.html",
    );
    expect(links.linkFor("pkg", "documents/topics/caching.md")).toBe(
      "https://pip.example.org/topics/caching.html",
    );
    expect(links.linkFor("pkg", "documents/NEWS.gz")).toBe("https://pip.example.org/NEWS");
    // A name that is only the extension keeps it: nothing would be left of it.
    expect(links.linkFor("pkg", "documents/.gz")).toBe("https://pip.example.org/.gz");
  });

  it("prefers the document's own http(s) address and drops any other scheme", () => {
    const links = DocumentLinks.of({ docs: { paths: ["docs/**"], url: "https://docs.example.com/{path}" } });
    expect(links.linkFor("docs", "docs/a.md", "https://elsewhere.example/a")).toBe(
      "https://elsewhere.example/a",
    );
    expect(links.linkFor("docs", "docs/a.md", "javascript:alert(1)")).toBe("https://docs.example.com/a.md");
    expect(links.linkFor("docs", "docs/a.md", "file:///etc/passwd")).toBe("https://docs.example.com/a.md");
    const untemplated = DocumentLinks.of({ docs: { paths: ["docs/**"] } });
    expect(untemplated.linkFor("docs", "docs/a.md", "data:text/html,<b>x</b>")).toBeUndefined();
    expect(safeHttpUrl("https://x.example/<script>")).toBe("https://x.example/%3Cscript%3E");
    expect(safeHttpUrl("https://user:pw@x.example/")).toBeUndefined();
    expect(safeHttpUrl(`https://x.example/${"a".repeat(2_100)}`)).toBeUndefined();
  });

  it("takes the folder the globs share as the root", () => {
    expect(staticRoot(["docs/**/*.md"])).toBe("docs");
    expect(staticRoot(["./docs/api/*.md", "docs/guide/**/*.md"])).toBe("docs");
    expect(staticRoot(["**/*.md"])).toBe("");
    expect(staticRoot(["docs/faq.md"])).toBe("docs");
    expect(staticRoot(["docs/+(api|guide)/*.md"])).toBe("docs");
    expect(staticRoot(["docs/a!b/*.md"])).toBe("docs/a!b");
  });

  it("config.json accepts a template or an object, and rejects a template without {path} or with another scheme", () => {
    const base = { knowledge: { collections: { docs: { paths: ["docs/*.md"] } } } };
    const withUrl = (url: unknown) =>
      BotConfigSchema.safeParse({
        ...base,
        knowledge: { collections: { docs: { paths: ["docs/*.md"], url } } },
      } as BotConfigInput);
    expect(withUrl("https://docs.example.com/{path}").success).toBe(true);
    expect(withUrl({ template: "https://docs.example.com/{path}", extensions: { ".md": "" } }).success).toBe(
      true,
    );
    const noPath = withUrl("https://docs.example.com/");
    expect(noPath.success).toBe(false);
    expect(JSON.stringify(noPath.error?.issues)).toContain("must contain {path}");
    const scheme = withUrl("javascript:alert('{path}')");
    expect(JSON.stringify(scheme.error?.issues)).toContain("must be an http:// or https:// address");
    expect(withUrl({ template: "https://d.example/{path}", extensions: { md: ".html" } }).success).toBe(
      false,
    );
    expect(withUrl({ template: "https://d.example/{path}", extensions: { ".md.gz": ".html" } }).success).toBe(
      true,
    );
    expect(withUrl({ template: "https://d.example/{path}", extensions: { ".md.": ".html" } }).success).toBe(
      false,
    );
  });

  it("leaves a response whose addresses all stand as the same object, and copies one whose addresses change", () => {
    const hit = (collection: string, url?: string): Hit => ({
      collection,
      id: "docs/a.md",
      title: "A",
      relevance: 0.5,
      band: "medium",
      ...(url === undefined ? {} : { url }),
    });
    const response = (...results: Hit[]): SearchResponse => ({
      query: "a",
      results,
      bestScore: 0.5,
      reranked: false,
    });
    const untemplated = DocumentLinks.of({ docs: { paths: ["docs/**"] } });
    const plain = response(hit("docs"), hit("docs", "https://x.example/a"));
    expect(untemplated.linkResponse(plain)).toBe(plain);
    const hostile = response(hit("docs"), hit("docs", "javascript:alert(1)"));
    const cleaned = untemplated.linkResponse(hostile);
    expect(cleaned).not.toBe(hostile);
    expect(cleaned.results[0]).toBe(hostile.results[0]);
    expect(cleaned.results[1]).not.toHaveProperty("url");
    expect(hostile.results[1]?.url).toBe("javascript:alert(1)");
    const templated = DocumentLinks.of({ docs: { paths: ["docs/**"], url: "https://d.example/{path}" } });
    expect(templated.linkResponse(plain).results.map((h) => h.url)).toEqual([
      "https://d.example/a.md",
      "https://x.example/a",
    ]);
  });

  it("fills a SharePoint library's template that ends with a query, a PDF's page after it", () => {
    const links = DocumentLinks.of({
      hr: {
        paths: ["synced/**/*"],
        url: "https://contoso.sharepoint.com/sites/hr/Shared%20Documents/{path}?web=1",
      },
    });
    expect(links.linkFor("hr", "synced/Policies/Travel policy.docx")).toBe(
      "https://contoso.sharepoint.com/sites/hr/Shared%20Documents/Policies/Travel%20policy.docx?web=1",
    );
    const hit: Hit = {
      collection: "hr",
      id: "synced/handbook.pdf",
      title: "Handbook",
      relevance: 0.5,
      band: "medium",
      pages: { start: 3, end: 3 },
    };
    expect(
      links.linkResponse({ query: "q", bestScore: 0.5, reranked: false, results: [hit] }).results[0]?.url,
    ).toBe("https://contoso.sharepoint.com/sites/hr/Shared%20Documents/handbook.pdf?web=1#page=3");
  });

  it("opens a PDF hit's link at its first page, and leaves every other link as it is", () => {
    const links = DocumentLinks.of({
      manuals: { paths: ["manuals/**"], url: "https://files.example.com/{path}" },
    });
    const hit = (id: string, pages?: Hit["pages"], url?: string): Hit => ({
      collection: "manuals",
      id,
      title: id,
      relevance: 0.5,
      band: "medium",
      ...(pages ? { pages } : {}),
      ...(url ? { url } : {}),
    });
    const urls = links
      .linkResponse({
        query: "q",
        bestScore: 0.5,
        reranked: false,
        results: [
          hit("manuals/setup guide.pdf", { start: 37, end: 39 }),
          hit("manuals/SCAN.PDF", { start: 1, end: 1 }),
          hit("manuals/notes.md", { start: 4, end: 4 }),
          hit("manuals/setup.pdf"),
          hit("manuals/own.pdf", { start: 2, end: 2 }, "https://intranet.example.com/own.pdf#page=9"),
          hit("manuals/odd.pdf", { start: 0, end: 0 }),
        ],
      })
      .results.map((h) => h.url);
    expect(urls).toEqual([
      "https://files.example.com/setup%20guide.pdf#page=37",
      "https://files.example.com/SCAN.PDF#page=1",
      "https://files.example.com/notes.md",
      "https://files.example.com/setup.pdf",
      // A fragment the document's own address names is its author's: kept.
      "https://intranet.example.com/own.pdf#page=9",
      "https://files.example.com/odd.pdf",
    ]);
    // get_document names the whole document: no page.
    const doc = { collection: "manuals", id: "manuals/setup guide.pdf", title: "Setup", text: "" };
    expect(links.linkDocument(doc).url).toBe("https://files.example.com/setup%20guide.pdf");
  });
});

/** The bot's documents: a page the template links, one with its own address, one with a hostile one. */
function writeSite(dir: string): void {
  mkdirSync(join(dir, "site/guide"), { recursive: true });
  writeFileSync(
    join(dir, "site/guide/rotation.md"),
    "# Key rotation\n\nThe signing key rotates every ninety days.\n",
  );
  writeFileSync(
    join(dir, "site/moved.md"),
    "---\ntitle: Moved page\nurl: https://wiki.example.org/Moved_page\n---\n\nThe archive moved to the cold vault.\n",
  );
  writeFileSync(
    join(dir, "site/hostile.html"),
    '<html><head><title>Hostile</title><link rel="canonical" href="javascript:alert(1)"></head><body><p>Tidal charts for the harbour office.</p></body></html>',
  );
  // A long page whose sections' headings carry ids, as generators write them.
  writeFileSync(
    join(dir, "site/firewall.html"),
    [
      "<html><head><title>Firewall</title></head><body><h1>Firewall</h1><p>Packet filtering.</p>",
      '<h2 id="install-rules">Installing the rules at boot</h2><p>The nftables service loads the ruleset when the machine starts.</p>',
      '<h2><a id="sect.netfilter"></a>Netfilter chains</h2><p>Chains hold verdicts such as accept and drop for each packet.</p>',
      "</body></html>",
    ].join("\n"),
  );
}

const SITE_URL = { template: "https://docs.example.com/{path}", extensions: { ".md": ".html" } };

/** What a linked backend answers for the three documents, and get_document. */
async function expectLinks(backend: KnowledgeBackend, collection: string): Promise<void> {
  const first = async (query: string) => (await backend.search({ query })).results[0];
  expect(await first("signing key rotates")).toMatchObject({
    id: "site/guide/rotation.md",
    url: "https://docs.example.com/guide/rotation.html",
  });
  expect((await first("archive cold vault"))?.url).toBe("https://wiki.example.org/Moved_page");
  expect((await first("tidal charts harbour"))?.url).toBe("https://docs.example.com/hostile.html");
  // A web page's hit opens at its section's heading, by the id the page gives it.
  expect((await first("nftables ruleset machine starts"))?.url).toBe(
    "https://docs.example.com/firewall.html#install-rules",
  );
  expect((await first("chains verdicts accept drop"))?.url).toBe(
    "https://docs.example.com/firewall.html#sect.netfilter",
  );
  const doc = await backend.getDocument?.(collection, "site/guide/rotation.md");
  expect(doc?.url).toBe("https://docs.example.com/guide/rotation.html");
}

describe("a bot whose collection names its published address", { timeout: 45_000 }, () => {
  let dir: string;
  const config: BotConfigInput = {
    knowledge: {
      backend: "embedded",
      collections: { docs: { paths: ["site/**/*.{md,html}"], url: SITE_URL } },
    },
    correctiveRetrieval: { enabled: true, grader: "signal" },
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "second-look-links-"));
    writeSite(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("hits and get_document carry the template's link, the document's own, or the template's in place of an unsafe one", async () => {
    const { backend, close } = await openBotBackend({
      name: "links",
      dir,
      config: BotConfigSchema.parse(config),
    });
    try {
      await expectLinks(backend, "docs");
    } finally {
      await close();
    }
  });

  it("the MCP tool's text and structuredContent carry it, and a chat host's citations read it from the text", async () => {
    const { backend, close } = await openBotBackend({
      name: "links",
      dir,
      config: BotConfigSchema.parse(config),
    });
    const harness = await connectInMemory({ config, backend, env: {} });
    try {
      const reply = await callAndRead(harness.client, "search_knowledge", { query: "signing key rotates" });
      expect(reply.isError).toBe(false);
      expect(reply.text).toContain("https://docs.example.com/guide/rotation.html");
      const structured = reply.structured as { hits: { doc_id: string; url: string | null }[] };
      expect(structured.hits[0]).toMatchObject({
        doc_id: "site/guide/rotation.md",
        url: "https://docs.example.com/guide/rotation.html",
      });
      expect(documentsInSearchText(reply.text)[0]).toEqual({
        key: "docs/site/guide/rotation.md",
        title: "Key rotation",
        url: "https://docs.example.com/guide/rotation.html",
      });
    } finally {
      await harness.close();
      await close();
    }
  });
});

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] links on a PostgreSQL bot: ${skipReason}`);

describe.skipIf(skipReason !== undefined)(
  "a PostgreSQL bot whose collection names its published address",
  () => {
    let server: PostgresServer;
    let dir: string;
    beforeAll(async () => {
      server = await startPostgres();
      dir = mkdtempSync(join(tmpdir(), "second-look-pg-links-"));
      writeSite(dir);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("links its hits and documents as the embedded backend does, from the stored addresses", async () => {
      const config = BotConfigSchema.parse({
        knowledge: {
          backend: "postgres",
          postgres: { urlEnv: "SL_LINKS_DATABASE_URL", schema: "links_test" },
          collections: { site: { paths: ["site/**/*.{md,html}"], url: SITE_URL } },
        },
      });
      const env = { SL_LINKS_DATABASE_URL: server.url };
      const indexed = await openBotBackend({ name: "pg-links", dir, config }, { index: true, env });
      await indexed.close();
      const { backend, close } = await openBotBackend({ name: "pg-links", dir, config }, { env });
      try {
        await expectLinks(backend, "site");
      } finally {
        await close();
      }
    }, 60_000);
  },
);
