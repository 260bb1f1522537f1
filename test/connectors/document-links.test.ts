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
import { DocumentLinks, safeHttpUrl, staticRoot } from "../../src/knowledge/document-links.js";
import { callAndRead } from "../support/mcp-call.js";
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
  });
});

describe("a bot whose collection names its published address", { timeout: 30_000 }, () => {
  let dir: string;
  const config: BotConfigInput = {
    knowledge: {
      backend: "embedded",
      collections: {
        docs: {
          paths: ["site/**/*.{md,html}"],
          url: { template: "https://docs.example.com/{path}", extensions: { ".md": ".html" } },
        },
      },
    },
    correctiveRetrieval: { enabled: true, grader: "signal" },
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "second-look-links-"));
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
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("hits and get_document carry the template's link, the document's own, or the template's in place of an unsafe one", async () => {
    const { backend, close } = await openBotBackend({
      name: "links",
      dir,
      config: BotConfigSchema.parse(config),
    });
    try {
      const first = async (query: string) => (await backend.search({ query })).results[0];
      expect(await first("signing key rotates")).toMatchObject({
        id: "site/guide/rotation.md",
        url: "https://docs.example.com/guide/rotation.html",
      });
      expect((await first("archive cold vault"))?.url).toBe("https://wiki.example.org/Moved_page");
      expect((await first("tidal charts harbour"))?.url).toBe("https://docs.example.com/hostile.html");
      const doc = await backend.getDocument?.("docs", "site/guide/rotation.md");
      expect(doc?.url).toBe("https://docs.example.com/guide/rotation.html");
    } finally {
      await close();
    }
  });

  it("the MCP tool's text and structuredContent carry it, and a chat host's citations read it from the text", async () => {
    const parsed = BotConfigSchema.parse(config);
    const { backend, close } = await openBotBackend({ name: "links", dir, config: parsed });
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
