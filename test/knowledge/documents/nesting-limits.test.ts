import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  assertFewUnclosedElements,
  MAX_UNCLOSED_ELEMENTS,
  parseHtml,
} from "../../../src/knowledge/documents/html-loader.js";
import { parseMarkdown } from "../../../src/knowledge/documents/markdown-loader.js";
import { hostileText } from "../../support/hostile-files.js";

describe("pathological nesting is refused before parsing, with its reason", () => {
  it("HTML with 100,000 unclosed elements: refused in a linear scan, naming the limit", () => {
    const started = performance.now();
    expect(() => parseHtml(hostileText.unclosedHtml(), "page")).toThrow(
      `300000 elements are never closed (limit ${MAX_UNCLOSED_ELEMENTS})`,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("deep but closed markup, just under the limit left open, void and optional-end elements, scripts and comments pass", () => {
    const deep = `${"<div>".repeat(5_000)}deep text${"</div>".repeat(5_000)}`;
    expect(parseHtml(`<html><body>${deep}</body></html>`, "page").sections[0]!.content).toBe("deep text");
    const open = `<html><body>${"<div>".repeat(MAX_UNCLOSED_ELEMENTS)}open text</body></html>`;
    expect(parseHtml(open, "page").sections[0]!.content).toBe("open text");
    const loose = `<ul>${"<li>item<br><img src=x><p>para".repeat(5_000)}</ul>`;
    expect(() => assertFewUnclosedElements(loose)).not.toThrow();
    const script = `<script>${"if (a<b && c<d) { x = '<span>'; }\n".repeat(3_000)}</script>`;
    const comment = `<!-- ${"<div>".repeat(3_000)} -->`;
    expect(() => assertFewUnclosedElements(`${script}${comment}<p>fine</p>`)).not.toThrow();
    expect(() => assertFewUnclosedElements(`${script}${"<div>".repeat(MAX_UNCLOSED_ELEMENTS + 1)}`)).toThrow(
      `${MAX_UNCLOSED_ELEMENTS + 1} elements are never closed`,
    );
  });

  it("the HTML pages of the test fixtures all pass", async () => {
    const root = join(import.meta.dirname, "../../fixtures/documents");
    const pages = (await readdir(root, { recursive: true })).filter((f) => /\.html?$/.test(f));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const html = await readFile(join(root, page), "utf8");
      expect(html.length).toBeGreaterThan(0);
      expect(() => assertFewUnclosedElements(html), page).not.toThrow();
    }
  });

  it("a Markdown list nested 3,000 deep by indentation: refused at once, naming line and depth", () => {
    const started = performance.now();
    expect(() => parseMarkdown(hostileText.indentedList(), "list")).toThrow(
      /a list item indented 402 columns on line 202 \(limit 400: lists nested over 100 deep\)/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    // Fifty levels, and code indented far (not a list item), parse as before.
    expect(parseMarkdown(hostileText.indentedList(50), "list").sections[0]!.content).toContain("level 49");
    expect(() => parseMarkdown(`${" ".repeat(500)}just indented code\n`, "code")).not.toThrow();
  });
});
