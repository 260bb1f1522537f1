import { describe, expect, it } from "vitest";
import { splitFrontMatter } from "../../../src/knowledge/documents/front-matter.js";

describe("splitFrontMatter", () => {
  it("reads top-level scalars and returns the body after the block", () => {
    const { fields, body } = splitFrontMatter(
      "---\nTitle: \"Leave: a guide\"\nurl: https://x.example/a#frag\nnote: 'it''s' \nplain: value # comment\n---\n# Body\n",
    );
    expect(fields).toEqual({
      title: "Leave: a guide",
      url: "https://x.example/a#frag",
      note: "it's",
      plain: "value",
    });
    expect(body).toBe("# Body\n");
  });

  it("skips nested maps, lists and block scalars instead of misreading them", () => {
    const { fields } = splitFrontMatter(
      "---\ntags:\n  - hr\n  - leave\nmeta:\n  title: nested\nsummary: |\n  long text\nlist: [a, b]\ntitle: Top\n---\n",
    );
    expect(fields).toEqual({ title: "Top" });
  });

  it("accepts an empty block and a `...` terminator", () => {
    expect(splitFrontMatter("---\n---\ntext")).toEqual({ fields: {}, body: "text" });
    expect(splitFrontMatter("---\ntitle: T\n...\ntext").fields.title).toBe("T");
  });

  it("leaves the source alone when there is no closed block at the very start", () => {
    for (const source of ["# Title\n---\ntitle: x\n---\n", "---\ntitle: never closed\n\ntext", "text"]) {
      expect(splitFrontMatter(source)).toEqual({ fields: {}, body: source });
    }
  });
});
