import { describe, expect, it } from "vitest";
import { buildSections } from "../../../src/knowledge/documents/section-tree.js";

describe("buildSections", () => {
  it("drops an empty preamble but keeps headed sections without content", () => {
    const sections = buildSections("Doc", [
      { level: 0, content: "" },
      { level: 1, heading: "Doc", content: "" },
      { level: 2, heading: "A", content: "a" },
    ]);
    expect(sections).toEqual([
      { headingPath: ["Doc"], heading: "Doc", level: 1, content: "" },
      { headingPath: ["Doc", "A"], heading: "A", level: 2, content: "a" },
    ]);
  });

  it("closes deeper headings when a shallower one arrives", () => {
    const sections = buildSections("T", [
      { level: 2, heading: "A", content: "" },
      { level: 4, heading: "A.1", content: "" },
      { level: 3, heading: "A.2", content: "" },
      { level: 2, heading: "B", content: "" },
    ]);
    expect(sections.map((s) => [s.headingPath, s.level])).toEqual([
      [["T", "A"], 1],
      [["T", "A", "A.1"], 2],
      [["T", "A", "A.2"], 2],
      [["T", "B"], 1],
    ]);
  });
});
