import { describe, expect, it } from "vitest";
import type { Hit } from "../src/types.js";
import { bandFor, isWeak, WEAK_BEST_SCORE } from "../src/weakness.js";

const hit: Hit = { collection: "c", id: "1", title: "t", relevance: 0.5, band: "medium" };

describe("bandFor", () => {
  it("high from 0.65 (Huginn's), medium from 0.20 (set on measured band precision), low below", () => {
    expect(bandFor(0.65)).toBe("high");
    expect(bandFor(0.99)).toBe("high");
    expect(bandFor(0.6499)).toBe("medium");
    expect(bandFor(0.2)).toBe("medium");
    expect(bandFor(0.1999)).toBe("low");
    expect(bandFor(0)).toBe("low");
  });
});

describe("isWeak", () => {
  it("weak when nothing survived filtering, even with a high bestScore", () => {
    expect(isWeak({ results: [], bestScore: 0.9 })).toBe(true);
  });
  it("weak below 0.25, not at it", () => {
    expect(WEAK_BEST_SCORE).toBe(0.25);
    expect(isWeak({ results: [hit], bestScore: 0.249 })).toBe(true);
    expect(isWeak({ results: [hit], bestScore: 0.25 })).toBe(false);
  });
  it("a medium band can still be weak", () => {
    expect(bandFor(0.22)).toBe("medium");
    expect(isWeak({ results: [{ ...hit, relevance: 0.22 }], bestScore: 0.22 })).toBe(true);
  });
});
