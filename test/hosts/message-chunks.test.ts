import { describe, expect, it } from "vitest";
import { splitMessage } from "../../src/hosts/message-chunks.js";

describe("splitMessage", () => {
  it("keeps a short message whole", () => {
    expect(splitMessage("  short answer \n", { maxChars: 500, maxChunks: 3 })).toEqual(["short answer"]);
  });

  it("cuts at paragraph boundaries, every chunk within the limit, no text lost", () => {
    const paragraphs = Array.from({ length: 10 }, (_, i) => `Paragraph ${i} ${"word ".repeat(30).trim()}.`);
    const text = paragraphs.join("\n\n");
    const chunks = splitMessage(text, { maxChars: 400, maxChunks: 20 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(400);
      expect(chunk.startsWith("Paragraph")).toBe(true);
    }
    expect(chunks.join("\n\n")).toBe(text);
  });

  it("closes and reopens a code fence that a cut falls inside", () => {
    const code = Array.from({ length: 60 }, (_, i) => `line ${i} of the script`).join("\n");
    const chunks = splitMessage(`Run this:\n\n\`\`\`\n${code}\n\`\`\``, { maxChars: 300, maxChunks: 20 });
    for (const chunk of chunks) expect((chunk.match(/```/g) ?? []).length % 2).toBe(0);
    expect(chunks.length).toBeGreaterThan(2);
  });

  it("bounds the number of messages and says the answer was cut", () => {
    const chunks = splitMessage("word ".repeat(5_000), { maxChars: 300, maxChunks: 3 });
    expect(chunks).toHaveLength(3);
    expect(chunks[2]).toMatch(/answer cut short/);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(300);
  });

  it("cuts text without any boundary at the limit", () => {
    const chunks = splitMessage("x".repeat(1_000), { maxChars: 300, maxChunks: 10 });
    expect(chunks.join("")).toBe("x".repeat(1_000));
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(300);
  });
});
