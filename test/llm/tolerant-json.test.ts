import { describe, expect, it } from "vitest";
import { extractJson, extractJsonObject, MAX_JSON_INPUT_CHARS } from "../../src/llm/tolerant-json.js";

describe("extractJson", () => {
  it("parses a clean object, array or scalar", () => {
    expect(extractJson('{"verdict":"correct"}')).toEqual({ verdict: "correct" });
    expect(extractJson(' [1, {"a": 2}] ')).toEqual([1, { a: 2 }]);
    expect(extractJson("42")).toBe(42);
  });

  it("reads the inside of a code fence, with or without a language tag", () => {
    expect(extractJson('```json\n{"verdict":"ambiguous"}\n```')).toEqual({ verdict: "ambiguous" });
    expect(extractJson('Here you go:\n```\n{"a":1}\n```\nDone.')).toEqual({ a: 1 });
  });

  it("finds the first balanced object after leading prose and before trailing prose", () => {
    expect(
      extractJson('Sure! My grade: {"verdict":"insufficient","reason":"off {topic}"} Hope it helps.'),
    ).toEqual({
      verdict: "insufficient",
      reason: "off {topic}",
    });
  });

  it("retries from the next opening bracket when a candidate does not parse", () => {
    expect(extractJson('Format: {verdict, reason}. Answer: {"verdict":"correct"}')).toEqual({
      verdict: "correct",
    });
    expect(extractJson('{ "a": [1, 2 } then {"b": 2}')).toEqual({ b: 2 });
  });

  it("skips brackets and escaped quotes inside strings", () => {
    expect(extractJson('x {"q":"a \\"}\\" b","n":[1]} y')).toEqual({ q: 'a "}" b', n: [1] });
  });

  it("returns undefined for prose, blanks, unbalanced text and non-strings", () => {
    for (const input of ["no json here", "", "   ", '{"a": 1', "{{{{", undefined, 42, null]) {
      expect(extractJson(input)).toBeUndefined();
    }
  });

  it("stays bounded on adversarial input: deep nesting, endless openers, a huge text", () => {
    expect(extractJson("{".repeat(200_000))).toBeUndefined();
    expect(extractJson(`x ${'[{"a":'.repeat(50_000)}`)).toBeUndefined();
    // A deep array that does close is valid JSON and is found (the parser copes with the depth).
    expect(Array.isArray(extractJson(`x ${"[".repeat(10_000)}${"]".repeat(10_000)}`))).toBe(true);
    expect(extractJson(`${"{x} ".repeat(100_000)}{"a":1}`)).toBeUndefined(); // past the candidate bound
    // Past the input bound the text is not searched.
    expect(extractJson(`${" ".repeat(MAX_JSON_INPUT_CHARS)} {"a":1}`)).toBeUndefined();
  });
});

describe("extractJsonObject", () => {
  it("takes an object, or the first object of an array", () => {
    expect(extractJsonObject('[{"verdict":"correct"}]')).toEqual({ verdict: "correct" });
    expect(extractJsonObject('"correct"')).toBeUndefined();
    expect(extractJsonObject("[1, 2]")).toBeUndefined();
  });
});
