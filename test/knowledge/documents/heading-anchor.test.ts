// A web page's sections keep the id of their heading, as the page's generator wrote it, so a hit's
// link opens at the section (src/knowledge/documents/heading-anchor.ts, section-anchor.ts).
import { describe, expect, it } from "vitest";
import { atSection } from "../../../src/knowledge/document-links.js";
import { parseHtml } from "../../../src/knowledge/documents/html-loader.js";
import { parseMarkdown } from "../../../src/knowledge/documents/markdown-loader.js";
import {
  isSafeAnchor,
  MAX_ANCHOR_CHARS,
  withoutHeadingAttributes,
} from "../../../src/knowledge/documents/section-anchor.js";

const anchors = (body: string) =>
  parseHtml(`<html><head><title>Page</title></head><body>${body}</body></html>`, "page").sections.map((s) => [
    s.heading,
    s.anchor,
  ]);

describe("the id a section's heading has in its page", () => {
  it("is read as each generator writes it", () => {
    expect(
      anchors(
        [
          // MkDocs, Hugo, Docusaurus: the heading's own id.
          '<h2 id="install">Install</h2><p>a</p>',
          // DocBook (the Debian handbook): an empty named link inside the heading.
          '<h2 class="title"><a xmlns="" id="sect.apt-get"></a>14.2. APT</h2><p>b</p>',
          '<h2><a name="legacy-name"></a>Legacy</h2><p>c</p>',
          // Sphinx: the section element the heading opens, and its permalink mark.
          '<section id="os.path"><h2>os.path<a class="headerlink" href="#os.path">¶</a></h2><p>d</p></section>',
          '<div class="section"><h2>Marked<a class="headerlink" href="#caf%C3%A9-au-lait">¶</a></h2><p>e</p></div>',
          // No id anywhere, or only on a container the heading does not open.
          "<h2>Plain</h2><p>f</p>",
          '<div id="sidebar"><p>intro</p><h2>Not first</h2><p>g</p></div>',
          // A link with words in it is the text's own, not a permalink.
          '<h2>Refs <a href="#elsewhere">see elsewhere</a></h2><p>h</p>',
        ].join(""),
      ),
    ).toEqual([
      ["Install", "install"],
      ["14.2. APT", "sect.apt-get"],
      ["Legacy", "legacy-name"],
      ["os.path", "os.path"],
      ["Marked", "café-au-lait"],
      ["Plain", undefined],
      ["Not first", undefined],
      ["Refs see elsewhere", undefined],
    ]);
  });

  it("passes over an id no link could name and takes the next one", () => {
    expect(
      anchors(
        [
          `<h2 id="has space"><a id="${"x".repeat(MAX_ANCHOR_CHARS + 1)}"></a><a class="headerlink" href="#fallback">¶</a>Odd</h2><p>a</p>`,
          '<h2 id="tab\there">Only bad</h2><p>b</p>',
        ].join(""),
      ),
    ).toEqual([
      ["Odd", "fallback"],
      ["Only bad", undefined],
    ]);
  });

  it("is a safe anchor only when it is a short string with no whitespace or control character", () => {
    for (const good of ["a", "sect.netfilter", "os.path", "café", "x".repeat(MAX_ANCHOR_CHARS)]) {
      expect(isSafeAnchor(good), good).toBe(true);
    }
    for (const bad of [
      "",
      "a b",
      "a\nb",
      "a\u0000b",
      "a\u0085b",
      "x".repeat(MAX_ANCHOR_CHARS + 1),
      7,
      null,
      {},
    ]) {
      expect(isSafeAnchor(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("a Markdown heading's attribute list", () => {
  it("is not part of the heading's text, and its id is the section's anchor", () => {
    const md = [
      "# Guide",
      "## Install the rules {#install-rules}",
      "a",
      "## Chains {: #sect.chains .wide }",
      "b",
      '## Unnumbered {- .note lang="en"}',
      "c",
      "## Use {braces} in templates",
      "d",
      "## Only {#}",
      "e",
      "## Plain",
      "f",
    ].join("\n\n");
    expect(parseMarkdown(md, "guide").sections.map((s) => [s.heading, s.anchor])).toEqual([
      ["Guide", undefined],
      ["Install the rules", "install-rules"],
      ["Chains", "sect.chains"],
      ["Unnumbered", undefined],
      ["Use {braces} in templates", undefined],
      ["Only {#}", undefined],
      ["Plain", undefined],
    ]);
  });

  it("is read only at the heading's end, and a heading of nothing but braces is kept whole", () => {
    expect(withoutHeadingAttributes("{#only}")).toEqual({ heading: "{#only}" });
    expect(withoutHeadingAttributes("Intro {#a} and more")).toEqual({ heading: "Intro {#a} and more" });
    expect(withoutHeadingAttributes("Setup {#first #second}")).toEqual({ heading: "Setup", anchor: "first" });
    expect(withoutHeadingAttributes(`Long {#${"x".repeat(MAX_ANCHOR_CHARS + 1)}}`)).toEqual({
      heading: "Long",
    });
  });
});

describe("a hit's link opens where its section starts", () => {
  const page = "https://docs.example.com/firewall.html";
  it("a web or Markdown page's at its heading's id, percent-encoded; a PDF's at its page", () => {
    expect(atSection(page, { id: "site/firewall.md", anchor: "install-rules" })).toBe(
      `${page}#install-rules`,
    );
    expect(atSection(page, { id: "site/firewall.html", anchor: "sect.netfilter" })).toBe(
      `${page}#sect.netfilter`,
    );
    expect(atSection(page, { id: "site/firewall.html.gz", anchor: "café au" })).toBe(page);
    expect(atSection(page, { id: "site/firewall.html.gz", anchor: "café" })).toBe(`${page}#caf%C3%A9`);
    expect(atSection(page, { id: "site/a.html", anchor: 'x#y"<' })).toBe(`${page}#x%23y%22%3C`);
    expect(atSection("https://f.example/m.pdf", { id: "m.pdf", pages: { start: 3, end: 4 } })).toBe(
      "https://f.example/m.pdf#page=3",
    );
  });

  it("leaves the address as it is for other formats, an unsafe or missing id, or a fragment already named", () => {
    expect(atSection(page, { id: "site/firewall.rst", anchor: "install" })).toBe(page);
    expect(atSection(page, { id: "book.epub", anchor: "chapter-2" })).toBe(page);
    expect(atSection(page, { id: "site/firewall.html" })).toBe(page);
    expect(atSection(page, { id: "site/firewall.html", anchor: 42 as never })).toBe(page);
    expect(atSection(`${page}#top`, { id: "site/firewall.html", anchor: "install" })).toBe(`${page}#top`);
    // An address near the bound on every link keeps its page rather than pass it.
    const long = `https://docs.example.com/${"p".repeat(1_965)}.html`;
    expect(atSection(long, { id: "site/a.html", anchor: "a-long-section-name" })).toBe(long);
    expect(atSection(`${long.slice(0, -5)}.pdf`, { id: "m.pdf", pages: { start: 12, end: 12 } })).toBe(
      `${long.slice(0, -5)}.pdf`,
    );
  });
});
