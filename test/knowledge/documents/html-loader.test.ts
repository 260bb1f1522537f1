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

describe("parseHtml titles", () => {
  it("a manual page's running header is never the title", () => {
    const header = "PASSWD(1) Dienstprogramme für Benutzer PASSWD(1)";
    expect(parseHtml(`<title>${header}</title><h1>passwd</h1><p>x</p>`, "f").title).toBe("passwd");
    expect(parseHtml(`<h1>${header}</h1><p>x</p>`, "passwd.1").title).toBe("passwd.1");
  });
});
