import { describe, expect, it } from "vitest";
import { closestKey } from "../../src/bots/closest-key.js";
import { editDistance } from "../../src/edit-distance.js";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and adjacent swaps as one edit", () => {
    expect(editDistance("correctiveRetrival", "correctiveRetrieval")).toBe(1);
    expect(editDistance("grader", "grder")).toBe(1);
    expect(editDistance("model", "modle")).toBe(1);
    expect(editDistance("url", "uri")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });
});

describe("closestKey", () => {
  const keys = ["enabled", "retryBudget", "grader", "graderModel", "graderTimeoutMs", "graderProvider"];
  it("suggests the nearest key, ignoring case", () => {
    expect(closestKey("retryBudjet", keys)).toBe("retryBudget");
    expect(closestKey("RetryBudget", keys)).toBe("retryBudget");
    expect(closestKey("enable", keys)).toBe("enabled");
    expect(closestKey("graderTimeout", keys)).toBe("graderTimeoutMs");
  });
  it("suggests nothing when nothing is plausibly meant", () => {
    expect(closestKey("color", keys)).toBeUndefined();
    expect(closestKey("x", ["url"])).toBeUndefined();
  });
  it("a key far longer than every candidate gets nothing, as its distance would say", () => {
    expect(closestKey("retryBudget".repeat(10_000), keys)).toBeUndefined();
    expect(closestKey("graderTimeoutMsXYZ", keys)).toBe("graderTimeoutMs");
    expect(closestKey("graderTimeoutMsWXYZ", keys)).toBeUndefined();
  });
});
