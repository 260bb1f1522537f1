import { describe, expect, it } from "vitest";
import { parseHtml } from "../../../src/knowledge/documents/html-loader.js";
import {
  isManPageHeader,
  isPermalinkMark,
  manPageToken,
  titleWithoutSiteName,
} from "../../../src/knowledge/documents/page-chrome.js";

describe("permalink marks", () => {
  it("are same-page links whose text is a lone symbol or nothing", () => {
    expect(isPermalinkMark("#module-pathlib", "¶")).toBe(true);
    expect(isPermalinkMark("#install", "\u200b")).toBe(true);
    expect(isPermalinkMark("#install", "#")).toBe(true);
    expect(isPermalinkMark("#install", " § ")).toBe(true);
    expect(isPermalinkMark("#install", "🔗")).toBe(true);
    expect(isPermalinkMark("#install", "")).toBe(true);
  });

  it("are not links with words, links to other pages, or links without a target", () => {
    expect(isPermalinkMark("#install", "see below")).toBe(false);
    expect(isPermalinkMark("#install", "A")).toBe(false);
    expect(isPermalinkMark("other.html#install", "¶")).toBe(false);
    expect(isPermalinkMark(undefined, "¶")).toBe(false);
  });
});

describe("titleWithoutSiteName", () => {
  it("drops the site's name the page's heading does not carry (Sphinx, MkDocs, Docusaurus)", () => {
    expect(
      titleWithoutSiteName(
        "pathlib — Object-oriented filesystem paths — Python 3.11.2 documentation",
        "pathlib — Object-oriented filesystem paths",
      ),
    ).toBe("pathlib — Object-oriented filesystem paths");
    expect(titleWithoutSiteName("Installation - MkDocs", "Installation")).toBe("Installation");
    expect(titleWithoutSiteName("Deploying | Docusaurus", "Deploying")).toBe("Deploying");
  });

  it("keeps a title its heading does not confirm, or that has no heading", () => {
    expect(titleWithoutSiteName("Travel & Expenses", "Business Travel")).toBe("Travel & Expenses");
    expect(titleWithoutSiteName("Rates - 2026", "Business Travel")).toBe("Rates - 2026");
    expect(titleWithoutSiteName("Install - Guide", undefined)).toBe("Install - Guide");
    expect(titleWithoutSiteName("Install - Guide", "")).toBe("Install - Guide");
    // A parenthesis is the page's own qualifier as often as a site's name: kept.
    expect(titleWithoutSiteName("Show Details (Pivot Table)", "Show Details")).toBe(
      "Show Details (Pivot Table)",
    );
  });

  it("keeps the longest confirmed title when the heading itself has a separator", () => {
    expect(titleWithoutSiteName("os - path - Site", "os - path")).toBe("os - path");
  });

  it("keeps a subtitle the page's text speaks of: it is the page's, not the site's", () => {
    const text = "Printed items\nChoose which items are already printed on your paper.";
    expect(titleWithoutSiteName("Letter Wizard - Printed items", "Letter Wizard", text)).toBe(
      "Letter Wizard - Printed items",
    );
    expect(titleWithoutSiteName("Letter Wizard - MySite", "Letter Wizard", text)).toBe("Letter Wizard");
  });
});

describe("parseHtml on a Sphinx page", () => {
  const page = `<html><head><title>pathlib — Object-oriented filesystem paths &#8212; Python 3.11.2 documentation</title></head>
<body><div class="body"><section id="module-pathlib">
<h1><a class="reference internal" href="#module-pathlib"><code>pathlib</code></a> — Object-oriented filesystem paths<a class="headerlink" href="#module-pathlib" title="Permalink to this heading">¶</a></h1>
<p>This module offers classes. See <a href="#basic-use">basic use</a> below.</p>
<h2>Basic use<a class="headerlink" href="#basic-use">¶</a></h2>
<dl><dt>Path.exists()<a class="headerlink" href="#pathlib.Path.exists">¶</a></dt><dd>Whether the path points to an existing file.</dd></dl>
</section></div></body></html>`;
  const doc = parseHtml(page, "pathlib");
  const text = doc.sections.map((s) => `${s.heading ?? ""}\n${s.content}`).join("\n");

  it("has neither the permalink marks nor the site's name", () => {
    expect(doc.title).toBe("pathlib — Object-oriented filesystem paths");
    expect(text).not.toContain("¶");
    expect(doc.sections.map((s) => s.heading)).toEqual([
      "pathlib — Object-oriented filesystem paths",
      "Basic use",
    ]);
  });

  it("keeps same-page links that are the text's own words", () => {
    expect(text).toContain("See basic use below.");
    expect(text).toContain("Path.exists()");
  });
});

describe("manual page running headers", () => {
  it("name the same page at both ends of one line", () => {
    expect(manPageToken("LS(1)   User Commands   LS(1)")).toBe("LS(1)");
    expect(manPageToken("  PASSWD(1) PASSWD(1)  ")).toBe("PASSWD(1)");
    expect(isManPageHeader("PASSWD(1)   Dienstprogramme für Benutzer   PASSWD(1)")).toBe(true);
    expect(isManPageHeader("LS(1) in practice")).toBe(false);
    expect(isManPageHeader("  LS(1)  ")).toBe(false);
    expect(isManPageHeader("LS(1) User Commands CP(1)")).toBe(false);
    expect(isManPageHeader("LS(1)User Commands LS(1)")).toBe(false);
    expect(isManPageHeader("LS(1) User\nCommands LS(1)")).toBe(false);
    expect(isManPageHeader("LS(1) \n User Commands \n LS(1)")).toBe(true);
  });

  it("a line of 100,000 spaces between a page name and another word is not one (and is checked at once)", () => {
    expect(isManPageHeader(`A(1)${" ".repeat(100_000)}B`)).toBe(false);
    expect(manPageToken(`A(1)${" ".repeat(100_000)}A(1)`)).toBeUndefined();
  });
});
