import { describe, expect, it } from "vitest";
import { progressLines } from "../../src/cli/progress.js";

/** progressLines fed `total` items, one every `stepMs` on a clock the test moves. */
function feed(total: number, stepMs: number, read: (done: number) => number = (done) => done) {
  let clock = 0;
  const lines: { at: number; line: string }[] = [];
  const progress = progressLines(
    (line) => lines.push({ at: clock, line }),
    undefined,
    () => clock,
  );
  for (let done = 1; done <= total; done++) {
    clock += stepMs;
    progress.update({ collection: "docs", done, total, read: read(done) });
  }
  progress.stop();
  return lines;
}

describe("progress lines (stderr not a terminal)", () => {
  it("reports long work at a bounded rate: the first item, every 10 % or 5 s, never twice a second, and the end", () => {
    // 2,000 files over 60 s.
    const lines = feed(2_000, 30);
    expect(lines[0]!.line).toBe("indexing docs: 1/2000 files (0 %)");
    expect(lines.at(-1)!.line).toBe("indexing docs: 2000/2000 files (100 %), 60.0 s");
    expect(lines.length).toBeGreaterThanOrEqual(12);
    expect(lines.length).toBeLessThanOrEqual(12 + 60 / 5);
    for (let i = 1; i < lines.length - 1; i++) {
      expect(lines[i]!.at - lines[i - 1]!.at).toBeGreaterThanOrEqual(1_000);
    }
  });

  it("fast work gets its first and last line only", () => {
    const lines = feed(400, 1);
    expect(lines.map((l) => l.line)).toEqual([
      "indexing docs: 1/400 files (0 %)",
      "indexing docs: 400/400 files (100 %), 0.4 s",
    ]);
  });

  it("says nothing for a refresh that reads no file, or for a few files", () => {
    expect(feed(400, 100, () => 0)).toEqual([]);
    expect(feed(20, 1_000)).toEqual([]);
  });

  it("starts counting at the first file that is read", () => {
    const lines = feed(100, 10, (done) => (done < 60 ? 0 : done - 59));
    expect(lines[0]!.line).toBe("indexing docs: 60/100 files (60 %)");
    expect(lines.at(-1)!.line).toBe("indexing docs: 100/100 files (100 %), 0.4 s");
  });
});
