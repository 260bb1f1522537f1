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

  describe("HTML's declared encoding", () => {
    const latin1 = (text: string) => Buffer.from(text, "latin1");

    it("reads <meta charset> Latin-1 (as windows-1252, like a browser)", () => {
      const page = latin1(
        '<html><head><meta charset="ISO-8859-1"><title>Gr\u00fc\u00dfe</title></head><body>\u00e6\u00f8\u00e5 \x80</body></html>',
      );
      expect(decodeText(page, { html: true })).toEqual({
        ok: true,
        text: '<html><head><meta charset="ISO-8859-1"><title>Grüße</title></head><body>æøå €</body></html>',
      });
    });

    it("reads the http-equiv Content-Type charset", () => {
      const page = latin1(
        '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15"><p>Fran\u00e7ais \u00a4</p>',
      );
      expect(decodeText(page, { html: true })).toMatchObject({
        ok: true,
        text: expect.stringContaining("<p>Français €</p>"),
      });
    });

    it("reads an XML declaration's encoding and Shift_JIS", () => {
      const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b]); // 日本
      const page = Buffer.concat([
        Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?><p>'),
        sjis,
        Buffer.from("</p>"),
      ]);
      expect(decodeText(page, { html: true })).toMatchObject({
        ok: true,
        text: expect.stringContaining("<p>日本</p>"),
      });
    });

    it("a byte order mark wins over the declaration, UTF-16 included", () => {
      const utf16 = Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('<meta charset="latin1"><p>ÿ日</p>\r\n', "utf16le"),
      ]);
      expect(decodeText(utf16, { html: true })).toEqual({
        ok: true,
        text: '<meta charset="latin1"><p>ÿ日</p>\n',
      });
      const utf8 = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('<meta charset="latin1"><p>ÿ</p>'),
      ]);
      expect(decodeText(utf8, { html: true })).toEqual({ ok: true, text: '<meta charset="latin1"><p>ÿ</p>' });
    });

    it("ignores a commented-out declaration and an unknown label; undeclared Latin-1 is still refused", () => {
      const page = latin1('<!-- <meta charset="latin1"> --><meta charset="no-such-encoding"><p>bl\u00e5</p>');
      const result = decodeText(page, { html: true });
      expect(!result.ok && result.reason).toMatch(
        /not valid UTF-8 .*declare its encoding with <meta charset>/,
      );
    });

    it("text files do not read a declaration", () => {
      const result = decodeText(latin1('<meta charset="latin1"> bl\u00e5'));
      expect(result.ok).toBe(false);
    });
  });
});
