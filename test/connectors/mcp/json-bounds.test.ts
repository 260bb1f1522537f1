// jsonOverBounds measures a JSON text's depth and members on its bytes, before it is parsed:
// brackets and commas inside strings (escaped quotes included) are text, not structure.
import { describe, expect, it } from "vitest";
import { jsonOverBounds } from "../../../src/connectors/mcp/json-bounds.js";

const bytes = (text: string) => Buffer.from(text, "utf8");
const bounds = { maxDepth: 3, maxElements: 5, maxNameBytes: 8 };

describe("jsonOverBounds", () => {
  it("passes a message within both bounds", () => {
    expect(jsonOverBounds(bytes('{"a":[1,2],"b":{"c":"x"}}'), bounds)).toBeUndefined();
    expect(jsonOverBounds(bytes(""), bounds)).toBeUndefined();
  });

  it("refuses the level past the depth bound", () => {
    expect(jsonOverBounds(bytes("[[[]]]"), bounds)).toBeUndefined();
    expect(jsonOverBounds(bytes("[[[[]]]]"), bounds)).toBe("nested deeper than 3 levels");
    expect(jsonOverBounds(bytes('{"a":{"b":{"c":{}}}}'), bounds)).toBe("nested deeper than 3 levels");
  });

  it("counts an array's elements and an object's members, and refuses past the bound", () => {
    // A container counts one and each comma one: as many as it holds (at least one).
    expect(jsonOverBounds(bytes("[1,2,3,4,5]"), bounds)).toBeUndefined();
    expect(jsonOverBounds(bytes("[1,2,3,4,5,6]"), bounds)).toBe("more than 5 members and elements");
    expect(jsonOverBounds(bytes('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}'), bounds)).toBe(
      "more than 5 members and elements",
    );
    expect(jsonOverBounds(bytes("[[1,2],[3,4]]"), bounds)).toBe("more than 5 members and elements");
  });

  it("refuses a member name past its bound, not a value of any length", () => {
    expect(jsonOverBounds(bytes('{"abcdefgh":1}'), bounds)).toBeUndefined();
    expect(jsonOverBounds(bytes('{"abcdefghi":1}'), bounds)).toBe("a member name longer than 8 bytes");
    expect(jsonOverBounds(bytes('{"abcdefghi" \n :1}'), bounds)).toBe("a member name longer than 8 bytes");
    expect(jsonOverBounds(bytes(`{"a":"${"v".repeat(10_000)}"}`), bounds)).toBeUndefined();
    expect(jsonOverBounds(bytes(`["${"v".repeat(10_000)}"]`), bounds)).toBeUndefined();
  });

  it("reads brackets, commas and escaped quotes inside strings as text", () => {
    expect(jsonOverBounds(bytes('["[[[[,,,,,,]]]]"]'), bounds)).toBeUndefined();
    expect(jsonOverBounds(bytes('["a\\"[[[[,,,,,,", "\\\\"]'), bounds)).toBeUndefined();
    // After an escaped backslash the quote closes the string: the brackets after it count.
    expect(jsonOverBounds(bytes('["\\\\",[[[]]]]'), bounds)).toBe("nested deeper than 3 levels");
    expect(jsonOverBounds(bytes('["ünïcödé [[[[ ✓"]'), bounds)).toBeUndefined();
    // Three backslashes: an escaped backslash, then an escaped quote; the string goes on.
    expect(jsonOverBounds(bytes('["a\\\\\\"[[[[", 1]'), bounds)).toBeUndefined();
    // An unterminated string runs to the end (JSON.parse then refuses the text).
    expect(jsonOverBounds(bytes('["[[[[[['), bounds)).toBeUndefined();
  });
});
