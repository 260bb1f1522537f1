import { describe, expect, it } from "vitest";
import { UnknownCollectionError } from "../src/backends/embedded/embedded-engine.js";
import { BotConfigError } from "../src/bots/config-error.js";
import { errorMessage, SecondLookError } from "../src/errors.js";
import {
  clampHitLimit,
  countOrZero,
  positiveOrUndefined,
  SEARCH_LIMITS,
  wholeAtLeastOne,
} from "../src/limits.js";
import { LlmError } from "../src/llm/llm-error.js";
import { clipText, fitText, oneLine } from "../src/text-clip.js";

describe("limits", () => {
  it("clamps hit limits and falls back to the default for non-numbers", () => {
    expect(clampHitLimit(5)).toBe(5);
    expect(clampHitLimit(5.9)).toBe(5);
    expect(clampHitLimit(0)).toBe(1);
    expect(clampHitLimit(1e9)).toBe(SEARCH_LIMITS.maxHits);
    expect(clampHitLimit("7")).toBe(SEARCH_LIMITS.defaultHits);
    expect(clampHitLimit(Number.NaN)).toBe(SEARCH_LIMITS.defaultHits);
  });

  it("keeps only positive finite options", () => {
    expect(positiveOrUndefined(3)).toBe(3);
    expect(positiveOrUndefined(0)).toBeUndefined();
    expect(positiveOrUndefined(-1)).toBeUndefined();
    expect(positiveOrUndefined(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(wholeAtLeastOne(2.7)).toBe(2);
    expect(wholeAtLeastOne(0.5)).toBeUndefined();
  });

  it("reads a count from untrusted data as a whole number, 0 when it is not one", () => {
    expect(countOrZero(12.7)).toBe(12);
    expect(countOrZero(0)).toBe(0);
    expect(countOrZero(-3)).toBe(0);
    expect(countOrZero("12")).toBe(0);
    expect(countOrZero(Number.POSITIVE_INFINITY)).toBe(0);
    expect(countOrZero(undefined)).toBe(0);
  });
});

describe("text clipping", () => {
  it("cuts at the bound with an ellipsis, never between the halves of a surrogate pair", () => {
    expect(clipText("abcdef", 10)).toBe("abcdef");
    expect(clipText("abcdef", 3)).toBe("abc…");
    expect(clipText("ab😀cd", 3)).toBe("ab…");
    expect(clipText("abcdef", 3, "")).toBe("abc");
  });

  it("fits text and its ellipsis within the bound", () => {
    expect(fitText("abcdef", 6)).toBe("abcdef");
    expect(fitText("abcdef", 4)).toBe("abc…");
    expect(fitText("abcdef", 4)).toHaveLength(4);
    expect(fitText("ab😀cd", 4)).toBe("ab…");
    expect(fitText("abcdef", 0)).toBe("…");
  });

  it("puts text on one line before cutting", () => {
    expect(oneLine("  a\n\tb   c  ", 100)).toBe("a b c");
    expect(oneLine("a\nb\nc\nd", 3)).toBe("a b…");
  });
});

describe("errors", () => {
  it("every layer's error is a SecondLookError with its layer and code", () => {
    const llm = new LlmError("anthropic", "timeout", "no reply within 5 ms");
    expect(llm).toBeInstanceOf(SecondLookError);
    expect([llm.layer, llm.code, llm.kind]).toEqual(["llm", "timeout", "timeout"]);
    const unknown = new UnknownCollectionError("x", ["a", "b"]);
    expect([unknown.layer, unknown.code]).toEqual(["knowledge", "unknown-collection"]);
    expect(unknown.message).toBe("Collection 'x' is not available. Available: a, b");
    const config = new BotConfigError("bots/a/config.json", ["bad key"]);
    expect([config.layer, config.code]).toEqual(["bots", "config"]);
  });

  it("errorMessage reads anything thrown", () => {
    expect(errorMessage(new Error("boom"))).toBe("boom");
    expect(errorMessage("plain")).toBe("plain");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(new TypeError())).toBe("TypeError");
  });
});
