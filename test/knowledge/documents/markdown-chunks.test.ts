import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { markdownChunks, parseMarkdown } from "../../../src/knowledge/documents/markdown-loader.js";

/** Every construct whose parse could depend on what came before or after a cut. */
const ORDINARY = `---
title: Field guide
---
Intro paragraph with a [reference link][docs] and a footnote.[^note]

# Setting up

Install it:

1. Download the installer.

2. Run it.
   It asks for a folder.

3. Restart.

- loose item one

- loose item two
  continued line

> A quote
> on two lines

> Another quote

## Code

\`\`\`sh
# not a heading: a shell comment

echo "inside a fence"
\`\`\`

~~~
# still code
~~~

    # indented code, not a heading

    more indented code

<!--
# a heading inside a comment is no heading

still the comment
-->

<div>
html block
</div>

Setext title
------------

| key | value |
| --- | --- |
| a | 1 |

## Reference

See [the docs] and [docs][] again. ![diagram alt text][img]

[^note]: The footnote text,
    continued.

Trailing paragraph.

[docs]: https://example.com/docs "Docs"
[the docs]: https://example.com/the-docs
[img]: https://example.com/img.png
`;

const sections = (source: string, chunkChars?: number) =>
  parseMarkdown(source, "file", chunkChars === undefined ? {} : { chunkChars });

describe("Markdown parsed in chunks", () => {
  // Hundreds of parses: seconds on a busy machine.
  it("gives exactly the sections of one parse, wherever the chunk size falls", { timeout: 60_000 }, () => {
    const whole = sections(ORDINARY);
    expect(whole.sections.length).toBeGreaterThan(4);
    // Link references resolved (their text, not "[docs]"), and the comment's "heading" is no section.
    expect(JSON.stringify(whole)).toContain("reference link");
    expect(JSON.stringify(whole)).not.toContain("[the docs]");
    expect(whole.sections.map((s) => s.heading)).not.toContain("a heading inside a comment is no heading");
    let cuts = 0;
    for (let chunkChars = 1; chunkChars <= ORDINARY.length; chunkChars += 11) {
      cuts += markdownChunks(ORDINARY, chunkChars).chunks.length - 1;
      expect(sections(ORDINARY, chunkChars), `chunkChars ${chunkChars}`).toEqual(whole);
    }
    // The comparison means something only if the document was really cut, and often.
    expect(cuts).toBeGreaterThan(100);
  });

  it("gives the handbook's documents the same sections in chunks as in one parse", {
    timeout: 60_000,
  }, async () => {
    const root = join(import.meta.dirname, "../../../bots/handbook/docs");
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".md"));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = await readFile(join(root, file), "utf8");
      expect(sections(source, 200), file).toEqual(sections(source));
    }
  });

  it("never cuts inside a fence, a long HTML block, or between items of one list", () => {
    const { chunks } = markdownChunks(ORDINARY, 1);
    const starts = chunks.map((c) => c.text.split("\n", 1)[0]);
    expect(starts).not.toContain('echo "inside a fence"');
    expect(starts).not.toContain("# a heading inside a comment is no heading");
    expect(starts).not.toContain("still the comment");
    expect(starts).not.toContain("2. Run it.");
    expect(starts).not.toContain("- loose item two");
    expect(starts).toContain("# Setting up");
    expect(chunks.map((c) => c.text).join("")).toBe(ORDINARY);
  });

  it("cuts a long file into chunks of about the chunk size and keeps every section", () => {
    const part = (i: number) => `## Part ${i}\n\nSome words about part ${i}.\n\n- a\n- b\n\n`;
    const source = Array.from({ length: 3000 }, (_, i) => part(i)).join("");
    const chunkChars = 8 * 1024;
    const { chunks } = markdownChunks(source, chunkChars);
    expect(chunks.length).toBeGreaterThan(source.length / chunkChars - 2);
    expect(Math.max(...chunks.map((c) => c.text.length))).toBeLessThan(chunkChars + 100);
    const doc = parseMarkdown(source, "big", { chunkChars });
    expect(doc.sections).toHaveLength(3000);
    expect(doc.sections[2999]).toMatchObject({
      heading: "Part 2999",
      content: "Some words about part 2999.\n\n- a\n- b",
    });
  });
});
