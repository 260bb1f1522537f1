// The n-gram table of the vendored language detector (scripts/eld-sorted-table.mjs): one sorted
// string a key is found in by binary search, read as the object eld expects.
import { describe, expect, it } from "vitest";
import { findInTable, sortedTable, tableText } from "../../../scripts/eld-sorted-table.mjs";

// Keys as eld makes them: its dictionary's characters (quotes, Latin-1 letters, a leading or
// trailing space for a word's edges), in no particular order.
const NGRAMS = {
  " the": { "11": 30 },
  "ing ": { "11": 25, "37": 3 },
  ' "\xF4S"': { "59": 52 },
  "\xE4\xDF\xF8 ": { "9": 12, "8": 4 },
  "zzz ": { "0": 1 },
  " aaa": { "60": 0 },
  a: { "1": 2 },
};

describe("the sorted n-gram table", () => {
  const text = tableText(NGRAMS);

  it("writes one line per key, in code-unit order", () => {
    const keys = text
      .split("\n")
      .filter(Boolean)
      .map((line) => line.slice(0, line.indexOf("\t")));
    expect(keys).toEqual(Object.keys(NGRAMS).sort());
    expect(text).toContain("ing \t11:25,37:3\n");
  });

  it("finds every key, the first and the last included, and no key it does not hold", () => {
    for (const key of Object.keys(NGRAMS)) expect(findInTable(text, key), key).toBeDefined();
    expect(findInTable(text, " aaa")).toBe("60:0");
    expect(findInTable(text, "\xE4\xDF\xF8 ")).toBe("8:4,9:12");
    for (const absent of ["", " ", "b", "ing", "ing  ", "zzzz", "\uFFFF", " th"]) {
      expect(findInTable(text, absent), JSON.stringify(absent)).toBeUndefined();
    }
    expect(findInTable("", "a")).toBeUndefined();
  });

  it("reads as eld's object: the same scores by key, `in`, and every key listed", () => {
    const table = sortedTable(text);
    for (const [key, scores] of Object.entries(NGRAMS)) expect({ ...table[key] }, key).toEqual(scores);
    expect(table["ing "]).toBe(table["ing "]);
    expect(table.absent).toBeUndefined();
    expect("zzz " in table).toBe(true);
    expect("zzz" in table).toBe(false);
    expect(Object.keys(table).sort()).toEqual(Object.keys(NGRAMS).sort());
    // eld sums a language's scores with for…in over a key's value.
    const summed: Record<string, number> = {};
    for (const lang in table["ing "]) summed[lang] = table["ing "]![lang]!;
    expect(summed).toEqual({ "11": 25, "37": 3 });
  });

  it("refuses a key holding a tab or a line break, which the layout could not tell from its own", () => {
    expect(() => tableText({ "a\tb": { "1": 1 } })).toThrow(RangeError);
    expect(() => tableText({ "a\nb": { "1": 1 } })).toThrow(/line break/);
  });
});
