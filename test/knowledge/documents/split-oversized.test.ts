import { describe, expect, it } from "vitest";
import { splitContent, splitOversizedSections } from "../../../src/knowledge/documents/split-oversized.js";
import type { DocSection } from "../../../src/types.js";

const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");

/** Every part fits, and the parts read back as the original words, in order, once each. */
function expectLosslessParts(text: string, parts: string[], max: number) {
  for (const part of parts) {
    expect(part.length).toBeLessThanOrEqual(max);
    expect(part).toBe(part.trim());
  }
  expect(words(parts.join(" "))).toEqual(words(text));
}

describe("splitContent", () => {
  it("leaves text within the limit alone", () => {
    expect(splitContent("  short text \n", 100)).toEqual(["short text"]);
  });

  it("prefers paragraph boundaries", () => {
    const a = "A".repeat(50);
    const b = "B".repeat(50);
    const c = "C".repeat(50);
    const text = `${a}\n\n${b}\n\n${c}`;
    expect(splitContent(text, 110)).toEqual([`${a}\n\n${b}`, c]);
  });

  it("falls back to sentence boundaries inside a long paragraph", () => {
    const sentences = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} ends here.`);
    const text = sentences.join(" ");
    const parts = splitContent(text, 100);
    expectLosslessParts(text, parts, 100);
    for (const part of parts) expect(part).toMatch(/^Sentence number \d+ .*ends here\.$/);
  });

  it("falls back to word boundaries and never cuts a word", () => {
    const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    const parts = splitContent(text, 64);
    expectLosslessParts(text, parts, 64);
    for (const part of parts) for (const w of words(part)) expect(w).toMatch(/^word\d+$/);
  });

  it("keeps list lines whole before splitting inside a line", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `- item ${i} with some words`);
    const text = lines.join("\n");
    const parts = splitContent(text, 120);
    expectLosslessParts(text, parts, 120);
    for (const part of parts) for (const line of part.split("\n")) expect(lines).toContain(line);
  });

  it("keeps a single over-long word whole in a part of its own", () => {
    const url = `https://example.com/${"x".repeat(80)}`;
    const text = `See ${url} for details.`;
    const parts = splitContent(text, 40);
    expect(parts).toContain(url);
    expect(words(parts.join(" "))).toEqual(words(text));
  });
});

describe("splitOversizedSections", () => {
  const section = (content: string): DocSection => ({
    headingPath: ["Handbook", "Leave"],
    heading: "Leave",
    level: 1,
    content,
  });

  it("splits only oversized sections into consecutive parts that keep heading, path and level", () => {
    const small = section("Small.");
    const bigText = Array.from({ length: 100 }, (_, i) => `Rule ${i} applies to everyone.`).join(" ");
    const out = splitOversizedSections([small, section(bigText), small], 500);
    expect(out[0]).toEqual(small);
    expect(out[out.length - 1]).toEqual(small);
    const parts = out.slice(1, -1);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.heading).toBe("Leave");
      expect(p.headingPath).toEqual(["Handbook", "Leave"]);
      expect(p.level).toBe(1);
    }
    expectLosslessParts(
      bigText,
      parts.map((p) => p.content),
      500,
    );
  });

  it("uses a 1500-character default", () => {
    const text = "lorem ipsum ".repeat(200).trim();
    const parts = splitOversizedSections([section(text)]);
    expect(parts.length).toBe(2);
    expectLosslessParts(
      text,
      parts.map((p) => p.content),
      1500,
    );
  });

  it("rejects a nonsensical limit", () => {
    expect(() => splitOversizedSections([section("x")], 0)).toThrow(RangeError);
  });
});
