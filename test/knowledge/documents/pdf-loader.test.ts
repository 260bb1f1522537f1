import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../src/knowledge/documents/load-document.js";
import { PdfParseError, parsePdf } from "../../../src/knowledge/documents/pdf-loader.js";
import { makeCjkPdf, makePdf } from "../../fixtures/pdf/make-pdf.js";
import { threePagePdf } from "../../fixtures/pdf/three-page-manual.js";

const tmp = mkdtempSync(join(tmpdir(), "second-look-pdf-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(name: string, bytes: Uint8Array | string): string {
  const path = join(tmp, name);
  writeFileSync(path, bytes);
  return path;
}

const summary = (sections: { heading?: string; level: number; pages?: { start: number; end: number } }[]) =>
  sections.map((s) => [s.heading, s.level, s.pages]);

describe("PDF loader", () => {
  it("takes sections from the outline, with a page range on every section", async () => {
    const doc = await parsePdf(threePagePdf(true), "manual", { maxSectionChars: 1500 });
    expect(doc.title).toBe("Atlas Field Manual");
    expect(summary(doc.sections)).toEqual([
      ["Atlas Field Manual", 1, { start: 1, end: 1 }],
      ["Introduction", 2, { start: 1, end: 1 }],
      ["Installation", 2, { start: 2, end: 2 }],
      ["Maintenance", 2, { start: 3, end: 3 }],
    ]);
    expect(doc.sections[3]!.headingPath).toEqual(["Atlas Field Manual", "Maintenance"]);
    expect(doc.sections[3]!.content).toContain("zebra crossing calibration");
  });

  it("falls back to font-size headings when there is no outline", async () => {
    const doc = await parsePdf(threePagePdf(false), "manual", { maxSectionChars: 1500 });
    expect(summary(doc.sections)).toEqual([
      ["Atlas Field Manual", 1, { start: 1, end: 1 }],
      ["Introduction", 2, { start: 1, end: 1 }],
      ["Installation", 2, { start: 2, end: 2 }],
      ["Maintenance", 2, { start: 3, end: 3 }],
    ]);
  });

  it("treats bold body-size rows as headings one level below the sized ones", async () => {
    const body = (t: string) => ({ text: t });
    const bytes = makePdf({
      pages: [
        [
          { text: "Handbook", size: 20 },
          body("Welcome to the handbook for new staff members."),
          { text: "Working hours", bold: true },
          body("Core hours are ten to three on weekdays."),
          body("Flexible time is recorded in the portal."),
          body("Overtime needs approval in advance."),
        ],
      ],
    });
    const doc = await parsePdf(bytes, "handbook", { maxSectionChars: 1500 });
    expect(summary(doc.sections)).toEqual([
      ["Handbook", 1, { start: 1, end: 1 }],
      ["Working hours", 2, { start: 1, end: 1 }],
    ]);
  });

  it("makes one 'Document' section when nothing looks like a heading", async () => {
    const bytes = makePdf({
      pages: [[{ text: "Just one line of text." }], [{ text: "And another on page two." }]],
    });
    const doc = await parsePdf(bytes, "plain", { maxSectionChars: 1500 });
    expect(doc.title).toBe("plain");
    expect(summary(doc.sections)).toEqual([["Document", 1, { start: 1, end: 2 }]]);
  });

  it("splits an oversized section at word boundaries with each part's own pages", async () => {
    const sentence = "Alpha bravo charlie delta echo foxtrot golf hotel india juliet.";
    const page = (n: number) => Array.from({ length: 30 }, () => ({ text: `${sentence} p${n}` }));
    const bytes = makePdf({ pages: [[{ text: "Long chapter", size: 18 }, ...page(1)], page(2), page(3)] });
    const doc = await parsePdf(bytes, "long", { maxSectionChars: 1000 });
    expect(doc.sections.length).toBeGreaterThan(3);
    for (const s of doc.sections) {
      expect(s.heading).toBe("Long chapter");
      expect(s.content.length).toBeLessThanOrEqual(1000);
      expect(s.content).toMatch(/^\S.*\S$/s);
      expect(s.content.split(/\s+/).every((w) => /^(?:[A-Za-z]+\.?|p\d)$/.test(w))).toBe(true);
      expect(s.pages!.start).toBeLessThanOrEqual(s.pages!.end);
    }
    expect(doc.sections[0]!.pages).toEqual({ start: 1, end: 1 });
    expect(doc.sections.at(-1)!.pages).toEqual({ start: 3, end: 3 });
    // A part whose text carries page-2 markers says page 2.
    const middle = doc.sections.find((s) => s.content.includes("p2") && !s.content.includes("p1"))!;
    expect(middle.pages!.start).toBe(2);
  });

  it("skips a broken PDF with a reason naming what is wrong", async () => {
    const garbage = await loadDocument(write("broken.pdf", "this is not a PDF at all"), "broken.pdf");
    expect(garbage).toEqual({
      ok: false,
      reason: expect.stringMatching(/^pdf parser failed: not a valid PDF/),
    });
    const truncated = threePagePdf().subarray(0, 200);
    const cut = await loadDocument(write("cut.pdf", truncated), "cut.pdf");
    expect(cut.ok).toBe(false);
  });

  it("reports a PDF without a text layer", async () => {
    const empty = makePdf({ pages: [[]] });
    await expect(parsePdf(empty, "scan", { maxSectionChars: 1500 })).rejects.toThrow(/no text layer/);
  });

  it("reads text set in a predefined CJK encoding through the shipped CMap files", async () => {
    const doc = await parsePdf(makeCjkPdf("日本語のテキスト"), "cjk", { maxSectionChars: 1500 });
    expect(doc.sections.map((s) => s.content).join("\n")).toContain("日本語のテキスト");
  });

  it("bounds the parse time", async () => {
    const promise = parsePdf(threePagePdf(), "manual", { maxSectionChars: 1500, timeoutMs: 0 });
    await expect(promise).rejects.toBeInstanceOf(PdfParseError);
    await expect(promise).rejects.toThrow(/longer than/);
  });

  it("loads through loadDocument with pages kept and the raw bytes hashed", async () => {
    const bytes = threePagePdf();
    const result = await loadDocument(write("manual.pdf", bytes), "docs/manual.pdf");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.doc.id).toBe("docs/manual.pdf");
    expect(result.doc.sections.every((s) => s.pages && s.pages.start >= 1)).toBe(true);
    expect(result.doc.text).toContain("Maintenance");
    expect(result.doc.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
