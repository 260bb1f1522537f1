import { describe, expect, it } from "vitest";
import { renderHits } from "../../src/knowledge-tool/render.js";
import { countDocIdLines, detectBriefMode } from "../../src/knowledge-tool/result-text.js";
import { hit } from "../corrective/corrective-fixtures.js";

describe("result shape", () => {
  const hits = [
    hit("wiki", "1", "One", 0.5, "## looks like a header\n1. **looks brief**"),
    hit("wiki", "2", "Two", 0.4),
  ];

  it("detects the mode from the first doc-id line", () => {
    expect(detectBriefMode(renderHits(hits, { brief: true }))).toBe(true);
    expect(detectBriefMode(renderHits(hits, { brief: false }))).toBe(false);
    expect(detectBriefMode("No results found for 'x'.")).toBeUndefined();
    // A doc-id-shaped fragment inside prose is not a doc-id line.
    expect(detectBriefMode("see collection: `a` here\ncollection: `wiki` doc_id: `1`")).toBe(false);
  });

  it("counts doc-id lines", () => {
    expect(countDocIdLines(renderHits(hits, { brief: true }))).toBe(2);
    expect(countDocIdLines("nothing")).toBe(0);
  });
});
