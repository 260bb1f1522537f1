// Issue 24, L9: the per-file time bound must admit what the size caps admit. The parse times are
// measured by `npm run bench -- hostile` (too slow for a test: a 4,999-page PDF parses for
// seconds) and recorded in bench/results/hostile.json; this holds the default bound to at least
// twice the slowest of them, so a busy machine still indexes a benign file at a cap.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_DOCUMENT_BYTES } from "../../src/knowledge/documents/load-document.js";
import { DEFAULT_FILE_TIMEOUT_MS } from "../../src/knowledge/index/ingest-limits.js";

interface CapFigures {
  case: string;
  bytes: number;
  indexed: boolean;
  parseMs: number;
}

const recorded = JSON.parse(
  readFileSync(new URL("../../bench/results/hostile.json", import.meta.url), "utf8"),
) as {
  figures: { caps: CapFigures[] };
};

describe("the default per-file time bound and the size caps", () => {
  it("admits each cap-sized benign file with at least 2× headroom over its measured parse", () => {
    const caps = recorded.figures.caps;
    expect(caps.map((c) => c.case)).toEqual(["9.9 MB prose Markdown", "4,999-page PDF"]);
    expect(caps[0]!.bytes).toBeGreaterThan(0.95 * DEFAULT_MAX_DOCUMENT_BYTES);
    expect(caps[0]!.bytes).toBeLessThanOrEqual(DEFAULT_MAX_DOCUMENT_BYTES);
    for (const c of caps) {
      expect(c.indexed, c.case).toBe(true);
      expect(DEFAULT_FILE_TIMEOUT_MS, c.case).toBeGreaterThanOrEqual(2 * c.parseMs);
    }
  });
});
