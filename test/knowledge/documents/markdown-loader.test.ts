import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseMarkdown } from "../../../src/knowledge/documents/markdown-loader.js";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/documents/${name}`, import.meta.url)), "utf8");

describe("parseMarkdown", () => {
  const doc = parseMarkdown(fixture("leave-policy.md"), "leave-policy");

  it("opens a section at every heading, with the text before the first heading as its own section", () => {
    expect(doc.sections.map((s) => [s.heading, s.level])).toEqual([
      [undefined, 0],
      ["Leave at Acme", 1],
      ["Accrual", 2],
      ["Part-time staff", 3],
      ["Requesting leave", 2],
      ["Questions", 1],
    ]);
    expect(doc.sections[0]?.content).toBe("This page applies to all permanent employees.");
  });

  it("builds heading paths from the document title down", () => {
    expect(doc.sections.map((s) => s.headingPath)).toEqual([
      ["Annual Leave Policy"],
      ["Annual Leave Policy", "Leave at Acme"],
      ["Annual Leave Policy", "Leave at Acme", "Accrual"],
      ["Annual Leave Policy", "Leave at Acme", "Accrual", "Part-time staff"],
      ["Annual Leave Policy", "Leave at Acme", "Requesting leave"],
      ["Annual Leave Policy", "Questions"],
    ]);
  });

  it("reads title and url from front matter and keeps the block out of the content", () => {
    expect(doc.title).toBe("Annual Leave Policy");
    expect(doc.url).toBe("https://handbook.example.com/leave");
    expect(doc.modifiedTime).toBe("2025-01-15T00:00:00.000Z");
    const all = doc.sections.map((s) => s.content).join("\n");
    expect(all).not.toContain("owner");
    expect(all).not.toContain("---");
  });

  it("renders inline markup, lists, tables and code as plain text", () => {
    const byHeading = (h: string) => doc.sections.find((s) => s.heading === h)?.content;
    expect(byHeading("Leave at Acme")).toBe(
      "Acme gives every employee 25 days of paid annual leave per year.",
    );
    // A soft line break is source wrapping, not a line.
    expect(byHeading("Accrual")).toBe("Leave accrues monthly at 2.08 days per month.");
    expect(byHeading("Requesting leave")).toBe(
      [
        "1. Open the HR portal.\n2. Choose Request time off.\n3. Wait for your manager's approval.",
        "Notice | Length of leave\n2 weeks | up to 5 days\n4 weeks | more than 5 days",
        "leave balance --year 2025",
      ].join("\n\n"),
    );
    expect(byHeading("Questions")).toBe("Ask the People Team.");
  });

  it("decides each link alike however often its destination repeats: an allowed one is a link, a refused one stays text", () => {
    const source = [
      "See [the guide](https://example.com/guide) and [the guide](https://example.com/guide).",
      "",
      "Not [a link](javascript:alert(1)), again [a link](javascript:alert(1)).",
      "",
      "[ref]: javascript:alert(2)",
      "",
      "[ref]: javascript:alert(2)",
    ].join("\n");
    for (let parse = 0; parse < 2; parse++) {
      expect(parseMarkdown(source, "links").sections[0]?.content).toBe(
        [
          "See the guide and the guide.",
          "Not [a link](javascript:alert(1)), again [a link](javascript:alert(1)).",
          "[ref]: javascript:alert(2)",
          "[ref]: javascript:alert(2)",
        ].join("\n\n"),
      );
    }
  });

  it("uses the first H1 as title when there is no front matter title", () => {
    const d = parseMarkdown("Preamble.\n\n## Before\n\ntext\n\n# Real Title\n\n## Sub\n\nmore", "file");
    expect(d.title).toBe("Real Title");
    expect(d.sections.find((s) => s.heading === "Sub")?.headingPath).toEqual(["Real Title", "Sub"]);
    expect(d.sections.find((s) => s.heading === "Before")?.headingPath).toEqual(["Real Title", "Before"]);
  });

  it("falls back to the file name when there is neither front matter title nor H1", () => {
    const d = parseMarkdown(fixture("no-heading.md"), "no-heading");
    expect(d.title).toBe("no-heading");
    expect(d.sections).toEqual([
      { headingPath: ["no-heading"], level: 0, content: "Just a paragraph, no headings at all." },
      {
        headingPath: ["no-heading", "A later section"],
        heading: "A later section",
        level: 1,
        content: "With text.",
      },
    ]);
  });

  it("nests a skipped heading level one deep under its parent", () => {
    const d = parseMarkdown("# T\n\n### Deep\n\nx\n\n## Mid\n\ny", "f");
    expect(d.sections.map((s) => [s.heading, s.level, s.headingPath])).toEqual([
      ["T", 1, ["T"]],
      ["Deep", 2, ["T", "Deep"]],
      ["Mid", 2, ["T", "Mid"]],
    ]);
  });

  it("yields no sections for a file with only front matter, and keeps its title", () => {
    const d = parseMarkdown(fixture("front-matter-only.md"), "front-matter-only");
    expect(d.title).toBe("Only Metadata");
    expect(d.url).toBe("https://example.com/x");
    expect(d.sections).toEqual([]);
  });

  it("handles GFM strikethrough, task lists, hard breaks, raw HTML and nested lists without syntax noise", () => {
    const d = parseMarkdown(
      "# T\n\nOld ~~10~~ new 12.<br>Next line.\n\n- [x] laptop\n- [ ] badge\n  - photo\n\n<div><p>Raw &amp; <b>bold</b></p></div>\n\n> Quoted *text*",
      "f",
    );
    expect(d.sections[0]?.content).toBe(
      "Old 10 new 12.\nNext line.\n\n- laptop\n- badge\n  - photo\n\nRaw & bold\n\nQuoted text",
    );
  });

  it("drops import/export statements from MDX but keeps the prose", () => {
    const d = parseMarkdown("import { Tabs } from './tabs'\n\n# Guide\n\nRead this.", "guide", { mdx: true });
    expect(d.sections.map((s) => s.content)).toEqual(["Read this."]);
  });

  it("ignores an empty heading line", () => {
    const d = parseMarkdown("# T\n\nbody\n\n#\n\nstill body", "f");
    expect(d.sections).toHaveLength(1);
    expect(d.sections[0]?.content).toBe("body\n\nstill body");
  });

  it("keeps a footnote's text in the section that defines it, referenced or not", () => {
    const d = parseMarkdown(
      "# A\n\nClaim.[^src]\n\n[^src]: The source,\n    continued.\n\n[^spare]: Never cited.\n\n# B\n\nOther.",
      "f",
    );
    expect(d.sections.map((s) => s.content)).toEqual([
      "Claim.\n\n[src] The source, continued.\n\n[spare] Never cited.",
      "Other.",
    ]);
  });

  it("reads headings with inline code and setext underlines, tables with escaped pipes and reference links", () => {
    const d = parseMarkdown(
      "API\n===\n\n## `fs.readFile(path)`\n\n| option | meaning |\n| --- | --- |\n| `a \\| b` | either *a* or b |\n\nSee [the guide][g].\n\n[g]: https://example.com/g\n",
      "f",
    );
    expect(d.title).toBe("API");
    expect(d.sections.map((s) => [s.heading, s.level])).toEqual([
      ["API", 1],
      ["fs.readFile(path)", 2],
    ]);
    expect(d.sections[1]?.content).toBe("option | meaning\na | b | either a or b\n\nSee the guide.");
  });

  it("drops HTML comments, and keeps the text of HTML that follows a comment in the same block", () => {
    const d = parseMarkdown(
      "# fs\n\n<!-- YAML\nadded: v0.1.29\n-->\n\nReads a file.\n\n<div><!-- note --><p>Kept</p></div>\n\n<!-- a --> <b>also kept</b>\n",
      "f",
    );
    expect(d.sections[0]?.content).toBe("Reads a file.\n\nKept\n\nalso kept");
  });
});
