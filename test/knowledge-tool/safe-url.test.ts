// One rule for the addresses hits, documents and answers link to: http(s) only, bounded, no
// whitespace inside, no user name or password.
import { describe, expect, it } from "vitest";
import { MAX_URL_CHARS, safeHttpUrl } from "../../src/knowledge-tool/safe-url.js";

describe("safeHttpUrl", () => {
  it("keeps a bounded http(s) URL, normalised, and drops everything else", () => {
    expect(safeHttpUrl(" HTTPS://Docs.Example.com/a ")).toBe("https://docs.example.com/a");
    expect(safeHttpUrl(undefined)).toBeUndefined();
    expect(safeHttpUrl("")).toBeUndefined();
    expect(safeHttpUrl("https://")).toBeUndefined();
    expect(safeHttpUrl("ftp://x.example/a")).toBeUndefined();
    expect(safeHttpUrl("https://x.example/a b")).toBeUndefined();
    expect(safeHttpUrl("https://x.example/a\tb")).toBeUndefined();
    expect(safeHttpUrl("https://user@x.example/")).toBeUndefined();
    const longest = `https://x.example/${"a".repeat(MAX_URL_CHARS - "https://x.example/".length)}`;
    expect(safeHttpUrl(longest)).toBe(longest);
    expect(safeHttpUrl(`${longest}a`)).toBeUndefined();
  });
});
