import { describe, expect, it } from "vitest";
import { decodeText } from "../../../src/knowledge/documents/decode-text.js";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

describe("decodeText", () => {
  it("strips a UTF-8 byte order mark and normalises CRLF and CR line endings", () => {
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], "a\r\nb\rc\n"))).toEqual({ ok: true, text: "a\nb\nc\n" });
  });

  it("rejects Latin-1 bytes as not UTF-8, naming the offset", () => {
    const result = decodeText(bytes("blåbær ", [0xe6, 0xf8, 0xe5]));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/not valid UTF-8.*offset 9/);
  });

  it("skips a genuine U+FFFD when locating the invalid byte", () => {
    const result = decodeText(bytes("a\uFFFDb", [0xff]));
    expect(!result.ok && result.reason).toMatch(/offset 5/);
  });

  it("rejects a NUL byte in the first 8 KB as binary", () => {
    const result = decodeText(bytes("%PDF-1.7\n", [0x00, 0x01]));
    expect(!result.ok && result.reason).toMatch(/binary file/);
  });
});
