// The copy of markdown-it the Markdown loader prefers (scripts/vendor-markdown-it.mjs: the
// package's CommonJS build with its class fields set by assignment) parses exactly as the package
// as published: the same tokens, field for field, for every Markdown file the tests and bots hold
// and for a page of every construct the loader reads.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type MarkdownItPackage from "markdown-it";
import footnote from "markdown-it-footnote";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const require = createRequire(join(ROOT, "package.json"));
// Inside the checkout (.scratch/ is ignored), where the copy's own requires (mdurl, …) resolve.
mkdirSync(join(ROOT, ".scratch"), { recursive: true });
const target = mkdtempSync(join(ROOT, ".scratch", "vendored-markdown-it-"));
execFileSync(process.execPath, [join(ROOT, "scripts/vendor-markdown-it.mjs"), target]);
afterAll(() => rmSync(target, { recursive: true, force: true }));

const EVERY_CONSTRUCT = [
  "---",
  "title: Front matter",
  "---",
  "# Title with `code` and *emphasis*",
  "",
  'Text with **strong**, ~~struck~~, a [link](https://example.com "t"), a [reference][r], <span>html</span> and a footnote[^1].',
  "",
  "[r]: https://example.com/r",
  "[^1]: The footnote, with *emphasis*.",
  "",
  "## Lists",
  "",
  "- one",
  "  - nested `x`",
  "- two",
  "",
  "1. first",
  "2. second",
  "",
  "> quote with a list:",
  "> - inside",
  "",
  "| a | b |",
  "| --- | :-: |",
  "| `c` | d \\| e |",
  "",
  "```js",
  "const x = 1;",
  "```",
  "",
  "    indented code",
  "",
  "<div>",
  "block html",
  "</div>",
  "",
  "Setext heading",
  "---",
  "",
  "Line one  ",
  "line two &amp; &copy; \\*escaped\\*",
  "",
].join("\n");

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return /\.(md|mdx|markdown)$/.test(name) ? [path] : [];
  });
}

function parserOf(MarkdownIt: typeof MarkdownItPackage) {
  const parser = new MarkdownIt("default", { html: true, linkify: false, typographer: false }).use(footnote);
  parser.core.ruler.disable("footnote_tail");
  return (text: string) => JSON.stringify(parser.parse(text, {}));
}

describe("the vendored markdown-it", () => {
  const published = readFileSync(require.resolve("markdown-it"), "utf8");
  const vendored = readFileSync(join(target, "markdown-it.cjs"), "utf8");

  it("sets the fields the published build sets through its helper by assignment", () => {
    expect(published).toMatch(/_defineProperty\(\s*this\b/);
    expect(vendored).not.toMatch(/_defineProperty\(\s*this\b/);
    expect(vendored).toContain("this.nesting = nesting;");
  });

  it("parses to the same tokens as the package", () => {
    const asVendored = parserOf(require(join(target, "markdown-it.cjs")) as typeof MarkdownItPackage);
    const asPublished = parserOf(require("markdown-it") as typeof MarkdownItPackage);
    const texts = [
      EVERY_CONSTRUCT,
      ...[join(ROOT, "test"), join(ROOT, "bots"), join(ROOT, "docs")]
        .flatMap(markdownFiles)
        .map((file) => readFileSync(file, "utf8")),
    ];
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) expect(asVendored(text)).toBe(asPublished(text));
  });
});
