import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { htmlFragmentText, parseHtml } from "../../../src/knowledge/documents/html-loader.js";

const source = readFileSync(
  fileURLToPath(new URL("../../fixtures/documents/travel.html", import.meta.url)),
  "utf8",
);

describe("parseHtml", () => {
  const doc = parseHtml(source, "travel");
  const all = doc.sections.map((s) => `${s.heading ?? ""}\n${s.content}`).join("\n");

  it("takes the title from <title>, decoded, and the url from the canonical link", () => {
    expect(doc.title).toBe("Travel & Expenses");
    expect(doc.url).toBe("https://handbook.example.com/travel");
  });

  it("opens sections at h1–h6 with heading paths and depths", () => {
    expect(doc.sections.map((s) => [s.heading, s.level, s.headingPath])).toEqual([
      ["Business Travel", 1, ["Travel & Expenses", "Business Travel"]],
      ["Daily allowance", 2, ["Travel & Expenses", "Business Travel", "Daily allowance"]],
      ["Exceptions", 3, ["Travel & Expenses", "Business Travel", "Daily allowance", "Exceptions"]],
    ]);
  });

  it("drops scripts, styles, noscript, templates, navigation, header and footer", () => {
    for (const gone of [
      "analytics",
      "Tracking",
      "font-family",
      "injected",
      "JavaScript",
      "Hidden template",
    ]) {
      expect(all).not.toContain(gone);
    }
    for (const chrome of ["Acme Intranet", "Leave", "Privacy", "©"]) expect(all).not.toContain(chrome);
  });

  it("decodes entities and normalises whitespace", () => {
    expect(doc.sections[0]?.content).toBe(
      "Book all trips through the travel portal at least 14 days ahead — café receipts included.",
    );
    expect(doc.sections[2]?.content).toBe("Ask finance<at>example.com.\nReplies within 2 days.");
  });

  it("keeps list items and table rows on their own lines", () => {
    expect(doc.sections[1]?.content).toBe(
      "- Meals: €60 per day\n- Hotel: up to €150 per night\n\nCity | Rate\nOslo | 900 NOK",
    );
  });

  it("falls back to the first h1, then the file name, for the title", () => {
    expect(parseHtml("<h2>a</h2><h1>The <em>Heading</em></h1><p>x</p>", "f").title).toBe("The Heading");
    expect(parseHtml("<p>just text</p>", "page").title).toBe("page");
  });

  it("keeps the article's own header when it sits inside <article>", () => {
    const d = parseHtml("<article><header><h1>Inside</h1></header><p>Body.</p></article>", "f");
    expect(d.sections).toEqual([{ headingPath: ["Inside"], heading: "Inside", level: 1, content: "Body." }]);
  });

  it("keeps preformatted text as laid out", () => {
    const d = parseHtml("<h1>T</h1><pre><code>a &lt; b\n    indented</code></pre>", "f");
    expect(d.sections[0]?.content).toBe("a < b\n    indented");
  });
});

describe("parseHtml on hostile markup", () => {
  it("reads absurdly deep nesting without overflowing the stack", () => {
    const d = parseHtml(`<h1>T</h1>${"<div>".repeat(20_000)}deep text${"</div>".repeat(20_000)}`, "f");
    expect(d.sections[0]?.content).toBe("deep text");
  });
});

describe("htmlFragmentText", () => {
  it("returns the readable text of a fragment", () => {
    expect(htmlFragmentText("<div>One&nbsp;<b>two</b></div><p>three</p><!-- no -->")).toBe(
      "One two\n\nthree",
    );
  });
});

describe("parseHtml leaves the site's frame out by one general rule", () => {
  const menu =
    '<ul><li><a href="/">Home</a></li><li><a href="/intro">Introduction</a></li><li><a href="/faq">FAQ</a></li></ul>';

  it("starts at role=main when the page has no <main>, dropping sidebars and footers outside it", () => {
    const d = parseHtml(
      `<body><div role="navigation">Navigation index modules</div><div class="document"><div class="body" role="main"><h1>pathlib</h1><p>Object paths.</p></div></div><div class="sphinxsidebar"><h3>This Page</h3><p>Show Source</p></div><div class="footer">© Copyright</div></body>`,
      "f",
    );
    expect(d.sections).toEqual([
      { headingPath: ["pathlib"], heading: "pathlib", level: 1, content: "Object paths." },
    ]);
  });

  it("drops navigation and search landmarks, even inside the main content", () => {
    const d = parseHtml(
      `<main><h1>T</h1><p>Body.</p><div role="navigation"><a href="/prev">Previous</a></div><form role="search"><label>Search the docs</label></form></main>`,
      "f",
    );
    expect(d.sections[0]?.content).toBe("Body.");
  });

  it("without a main landmark: page-level header, footer, aside, frame roles and link-dense blocks are dropped", () => {
    const d = parseHtml(
      `<body><header><p>Main Menu</p></header><aside><p>Contents</p></aside><div role="banner">Site banner</div><div class="menu">${menu}</div><h1>Freezing rows</h1><p>Choose <a href="/view">View - Freeze Rows</a> to freeze the first rows, as <a href="/a">one</a> or <a href="/b">two</a> explain.</p><div class="related"><p>Related Topics</p><p><a href="/x">View - Split Window</a></p><p><a href="/y">Printing Rows on Every Page</a></p><p><a href="/z">Format - Print Ranges</a></p></div><div role="contentinfo">Licence</div><footer>Imprint</footer></body>`,
      "f",
    );
    expect(d.sections).toEqual([
      {
        headingPath: ["Freezing rows"],
        heading: "Freezing rows",
        level: 1,
        content: "Choose View - Freeze Rows to freeze the first rows, as one or two explain.",
      },
    ]);
  });

  it("keeps a link-dense block that sits inside the main content (an API table is the page's text)", () => {
    const d = parseHtml(
      `<div role="main"><h1>T</h1><table><tr><td><a href="#a">os.path.abspath()</a></td><td><a href="#b">Path.absolute()</a></td></tr><tr><td><a href="#c">os.getcwd()</a></td><td><a href="#d">Path.cwd()</a></td></tr></table></div>`,
      "f",
    );
    expect(d.sections[0]?.content).toBe("os.path.abspath() | Path.absolute()\nos.getcwd() | Path.cwd()");
  });

  it("a manual page's running header is never the title", () => {
    const header = "PASSWD(1) Dienstprogramme für Benutzer PASSWD(1)";
    expect(parseHtml(`<title>${header}</title><h1>passwd</h1><p>x</p>`, "f").title).toBe("passwd");
    expect(parseHtml(`<h1>${header}</h1><p>x</p>`, "passwd.1").title).toBe("passwd.1");
  });
});
