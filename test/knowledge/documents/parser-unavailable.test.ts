// A PDF parser that cannot load (pdf.js missing from the install) fails the file with a reason
// marked as the install's fault, so no index remembers the file as refused.
import { describe, expect, it, vi } from "vitest";

vi.mock("../../../src/knowledge/documents/pdf-loader.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../../src/knowledge/documents/pdf-loader.js")>();
  return {
    ...actual,
    parsePdf: async (bytes: Uint8Array) => {
      if (bytes[0] === 0x21) throw new actual.PdfParseError("the file is damaged");
      throw new actual.PdfEngineMissingError("pdf.js is missing from vendor/pdfjs-dist/");
    },
  };
});

const { parseDocumentBytes } = await import("../../../src/knowledge/documents/load-document.js");

const read = (first: number) => ({ bytes: new Uint8Array([first, 0x50, 0x44, 0x46]) });

describe("parseDocumentBytes when the PDF parser is unavailable", () => {
  it("fails with the reason, marked notTheFile", async () => {
    const result = await parseDocumentBytes("/bot/docs/a.pdf", "docs/a.pdf", read(0x25));
    expect(result).toEqual({
      ok: false,
      reason: "pdf parser failed: pdf.js is missing from vendor/pdfjs-dist/",
      notTheFile: true,
    });
  });

  it("a damaged file is the file's own failure", async () => {
    const result = await parseDocumentBytes("/bot/docs/b.pdf", "docs/b.pdf", read(0x21));
    expect(result).toEqual({ ok: false, reason: "pdf parser failed: the file is damaged" });
  });
});
