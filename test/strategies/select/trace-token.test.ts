// Trace tokens (docs/reference/vectorless-strategies.md §12.9).
import { describe, expect, it } from "vitest";
import { computeTraceToken, SYSTEM_PROMPT_VERSION } from "../../../src/strategies/select/trace-token.js";

describe("computeTraceToken", () => {
  const token = computeTraceToken("doc", "1", "m", ["a", "b", "c"]);
  it("shape, determinism, sort invariance, input not mutated", () => {
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(computeTraceToken("doc", "1", "m", ["a", "b", "c"])).toBe(token);
    for (const p of [
      ["c", "b", "a"],
      ["b", "a", "c"],
      ["a", "c", "b"],
    ])
      expect(computeTraceToken("doc", "1", "m", p)).toBe(token);
    const ids = ["b", "a"];
    computeTraceToken("doc", "1", "m", ids);
    expect(ids).toEqual(["b", "a"]);
  });
  it("input sensitivity, delimiter collisions, empty selection, prompt version", () => {
    for (const other of [
      computeTraceToken("doc2", "1", "m", ["a", "b", "c"]),
      computeTraceToken("doc", "2", "m", ["a", "b", "c"]),
      computeTraceToken("doc", "1", "m2", ["a", "b", "c"]),
      computeTraceToken("doc", "1", "m", ["a", "b"]),
      computeTraceToken("doc", "1", "m", ["a", "b", "c", "d"]),
      computeTraceToken("doc", "1", "m", []),
    ]) {
      expect(other).not.toBe(token);
    }
    expect(computeTraceToken("d", "1", "m", ["a,b", "c"])).not.toBe(
      computeTraceToken("d", "1", "m", ["a", "b,c"]),
    );
    expect(computeTraceToken("d", "1", "m", [])).toMatch(/^[0-9a-f]{64}$/);
    expect(SYSTEM_PROMPT_VERSION).toBe("v1");
  });
});
