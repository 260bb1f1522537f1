import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { OfficeFormat } from "../../../src/knowledge/documents/document-format.js";
import { loadDocument } from "../../../src/knowledge/documents/load-document.js";
import { parseOffice } from "../../../src/knowledge/documents/office-loader.js";
import {
  MAX_REPEAT,
  MAX_REPEATED_HEADER_CHARS,
  MAX_SHEET_ROWS,
} from "../../../src/knowledge/documents/office-sections.js";
import { MAX_PART_BYTES, MAX_ZIP_ENTRIES, WorkClock } from "../../../src/knowledge/documents/office-zip.js";
import { DEFAULT_MAX_SECTION_CHARS } from "../../../src/knowledge/documents/split-oversized.js";
import {
  docxBytes,
  epubBytes,
  type FixtureDocument,
  latin1HtmlBytes,
  odfBytes,
  odpBytes,
  odsBytes,
  odtBytes,
  pptxBytes,
  withDeclaredEntryCount,
  withDeclaredSize,
  writeOfficeSamples,
  xlsxBytes,
  zipParts,
} from "../../support/office-fixtures.js";

const handbook: FixtureDocument = {
  title: "Travel handbook",
  sections: [
    {
      heading: "Booking trips",
      paragraphs: ["Book flights through the travel desk.", "Trains need no approval."],
      items: ["Economy class", "Seat reservations"],
      rows: [
        ["Item", "Limit"],
        ["Hotel", "150 EUR"],
      ],
    },
    { heading: "Expenses", paragraphs: ["Submit receipts within 30 days."] },
  ],
};

async function parse(bytes: Uint8Array, format: OfficeFormat) {
  return parseOffice(bytes, format, "file-name");
}

describe("office documents: sections from headings", () => {
  for (const [format, bytes] of [
    ["docx", () => docxBytes(handbook)],
    ["odt", () => odtBytes(handbook)],
  ] as const) {
    it(`${format}: headings open sections; lists, tables and the title are read`, async () => {
      const doc = await parse(bytes(), format);
      expect(doc.title).toBe("Travel handbook");
      expect(doc.sections.map((s) => s.heading)).toEqual(["Booking trips", "Expenses"]);
      expect(doc.sections[0]!.headingPath).toEqual(["Travel handbook", "Booking trips"]);
      expect(doc.sections[0]!.content).toBe(
        "Book flights through the travel desk.\n\nTrains need no approval.\n\n- Economy class\n- Seat reservations\n\nItem | Limit\nHotel | 150 EUR",
      );
      expect(doc.sections[1]!.content).toBe("Submit receipts within 30 days.");
    });
  }

  it("docx: a paragraph in the Title style is the title when the core properties have none", async () => {
    const bytes = zipParts({
      "word/styles.xml":
        '<w:styles xmlns:w="w"><w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style></w:styles>',
      "word/document.xml":
        '<w:document xmlns:w="w"><w:body><w:p><w:pPr><w:pStyle w:val="Titel"/></w:pPr><w:r><w:t>Quarterly report</w:t></w:r></w:p><w:p><w:r><w:t>Sales rose.</w:t><w:delText>Sales fell.</w:delText></w:r></w:p></w:body></w:document>',
    });
    const doc = await parse(bytes, "docx");
    expect(doc.title).toBe("Quarterly report");
    expect(doc.sections.map((s) => s.content)).toEqual(["Sales rose."]);
  });

  it("docx: a text box's paragraphs do not cut the paragraph that holds them", async () => {
    const box =
      "<w:r><w:drawing><wps:txbx><w:txbxContent><w:p><w:r><w:t>Boxed note.</w:t></w:r></w:p></w:txbxContent></wps:txbx></w:drawing></w:r>";
    const bytes = zipParts({
      "word/document.xml": `<w:document xmlns:w="w" xmlns:wps="p"><w:body><w:p><w:r><w:t>Before the box,</w:t></w:r>${box}<w:r><w:t> after it.</w:t></w:r></w:p></w:body></w:document>`,
    });
    const doc = await parse(bytes, "docx");
    expect(doc.sections.map((s) => s.content)).toEqual(["Boxed note.\n\nBefore the box, after it."]);
  });

  it("docx: a non-breaking hyphen is a hyphen and a soft hyphen no break", async () => {
    const bytes = zipParts({
      "word/document.xml":
        '<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>Send an e</w:t><w:noBreakHyphen/><w:t>mail to the Sicher</w:t><w:softHyphen/><w:t>heits team.</w:t></w:r></w:p></w:body></w:document>',
    });
    const doc = await parse(bytes, "docx");
    expect(doc.sections.map((s) => s.content)).toEqual(["Send an e-mail to the Sicherheits team."]);
  });

  it("the file name is the title when the document states none", async () => {
    const doc = await parse(docxBytes({ sections: handbook.sections }), "docx");
    expect(doc.title).toBe("file-name");
  });
});

describe("presentations: one section per slide", () => {
  const slides = [
    { title: "Quarterly review", lines: ["Revenue grew 12 percent."] },
    { title: "Next steps", lines: ["Hire two engineers.", "Open the Berlin office."] },
  ];
  for (const [format, bytes] of [
    ["pptx", () => pptxBytes(slides)],
    ["odp", () => odpBytes(slides)],
  ] as const) {
    it(`${format}: each slide's title heads its text, in order; notes are left out`, async () => {
      const doc = await parse(bytes(), format);
      expect(doc.title).toBe("Quarterly review");
      expect(doc.sections.map((s) => [s.heading, s.content])).toEqual([
        ["Quarterly review", "Revenue grew 12 percent."],
        ["Next steps", "Hire two engineers.\n\nOpen the Berlin office."],
      ]);
    });
  }

  it("pptx: slides follow the presentation's list, not the file numbers", async () => {
    const bytes = pptxBytes(slides);
    const { unzipSync } = await import("fflate");
    const parts = unzipSync(bytes);
    const text = new TextDecoder().decode(parts["ppt/_rels/presentation.xml.rels"]);
    parts["ppt/_rels/presentation.xml.rels"] = new TextEncoder().encode(
      text
        .replace("slides/slide1.xml", "slides/slideX.xml")
        .replace("slides/slide2.xml", "slides/slide1.xml")
        .replace("slides/slideX.xml", "slides/slide2.xml"),
    );
    const doc = await parse(zipParts(parts), "pptx");
    expect(doc.sections.map((s) => s.heading)).toEqual(["Next steps", "Quarterly review"]);
  });
});

describe("spreadsheets: one section per sheet, rows as lines", () => {
  const sheets = [
    {
      name: "Prices",
      rows: [
        ["Product", "Price"],
        ["Widget", 9.5],
        ["Gadget", 12],
      ],
    },
    { name: "Stock", rows: [["Widget", 140]] },
  ];
  for (const [format, bytes] of [
    ["xlsx", () => xlsxBytes(sheets)],
    ["ods", () => odsBytes(sheets)],
  ] as const) {
    it(`${format}: each sheet's name heads its rows`, async () => {
      const doc = await parse(bytes(), format);
      expect(doc.sections.map((s) => [s.heading, s.content])).toEqual([
        ["Prices", "Product | Price\nWidget | 9.5\nGadget | 12"],
        ["Stock", "Widget | 140"],
      ]);
    });
  }
});

describe("spreadsheets: a long sheet in parts, each opening with its first row", () => {
  const header = ["Part", "Price", "Location"];
  const rows = Array.from({ length: 400 }, (_, i) => [
    `Part ${i}`,
    `${(i * 1.25).toFixed(2)}`,
    `bin ${i % 7}`,
  ]);
  for (const [format, bytes] of [
    ["xlsx", () => xlsxBytes([{ name: "Inventory", rows: [header, ...rows] }])],
    ["ods", () => odsBytes([{ name: "Inventory", rows: [header, ...rows] }])],
  ] as const) {
    it(`${format}: every part holds the column names, within a section's size, and every row once`, async () => {
      const doc = await parse(bytes(), format);
      expect(doc.sections.length).toBeGreaterThan(5);
      for (const section of doc.sections) {
        expect(section.heading).toBe("Inventory");
        expect(section.content.split("\n")[0]).toBe("Part | Price | Location");
        expect(section.content.length).toBeLessThanOrEqual(DEFAULT_MAX_SECTION_CHARS);
      }
      expect(doc.sections.flatMap((s) => s.content.split("\n").slice(1))).toEqual(
        rows.map((row) => row.join(" | ")),
      );
    });
  }

  it("a first row wider than MAX_REPEATED_HEADER_CHARS heads only the first part", async () => {
    const wide = [`Notes ${"n".repeat(MAX_REPEATED_HEADER_CHARS)}`];
    const doc = await parse(xlsxBytes([{ name: "Log", rows: [wide, ...rows] }]), "xlsx");
    expect(doc.sections.length).toBeGreaterThan(5);
    expect(doc.sections[0]!.content.split("\n")[0]).toBe(wide[0]);
    expect(doc.sections.slice(1).every((s) => !s.content.includes(wide[0]!))).toBe(true);
    expect(doc.sections.flatMap((s) => s.content.split("\n")).slice(1)).toEqual(
      rows.map((row) => row.join(" | ")),
    );
  });
});

describe("epub", () => {
  it("reads the chapters in spine order under the book's title", async () => {
    const bytes = epubBytes(
      [
        { title: "Departure", paragraphs: ["The ship left at dawn."] },
        { title: "Arrival", paragraphs: ["They landed at noon."] },
      ],
      "A voyage",
    );
    const doc = await parse(bytes, "epub");
    expect(doc.title).toBe("A voyage");
    expect(doc.sections.map((s) => [s.heading, s.content])).toEqual([
      ["Arrival", "They landed at noon."],
      ["Departure", "The ship left at dawn."],
    ]);
  });
});

describe("hostile and broken files", () => {
  const every: readonly [OfficeFormat, () => Uint8Array, string][] = [
    ["docx", () => docxBytes(handbook), "word/document.xml"],
    ["pptx", () => pptxBytes([{ title: "T", lines: ["x"] }]), "ppt/slides/slide1.xml"],
    ["xlsx", () => xlsxBytes([{ name: "S", rows: [["x"]] }]), "xl/worksheets/sheet1.xml"],
    ["odt", () => odtBytes(handbook), "content.xml"],
    ["odp", () => odpBytes([{ title: "T", lines: ["x"] }]), "content.xml"],
    ["ods", () => odsBytes([{ name: "S", rows: [["x"]] }]), "content.xml"],
    ["epub", () => epubBytes([{ title: "T", paragraphs: ["x"] }]), "OEBPS/content.opf"],
  ];

  for (const [format, bytes, part] of every) {
    it(`${format}: a zip bomb (a part declaring 3 GB) is refused before it is inflated`, async () => {
      await expect(parse(withDeclaredSize(bytes(), part, 3 * 1024 ** 3), format)).rejects.toThrow(
        `"${part}" inflates to 3221225472 bytes (limit ${MAX_PART_BYTES} per part)`,
      );
    });

    it(`${format}: a part inflating past the size it declares is refused`, async () => {
      await expect(parse(withDeclaredSize(bytes(), part, 10), format)).rejects.toThrow(
        /"[^"]+" .*(too many bytes|past its declared)/,
      );
    });

    it(`${format}: a truncated file is refused as an unreadable zip`, async () => {
      const whole = bytes();
      await expect(parse(whole.subarray(0, Math.floor(whole.length * 0.6)), format)).rejects.toThrow(
        /not a readable zip archive/,
      );
    });

    it(`${format}: a file without its main part is refused, naming the part`, async () => {
      const { unzipSync } = await import("fflate");
      const parts = unzipSync(bytes());
      const main =
        format === "docx"
          ? "word/document.xml"
          : format === "xlsx"
            ? "xl/workbook.xml"
            : format === "epub"
              ? "META-INF/container.xml"
              : format === "pptx"
                ? "ppt/slides/slide1.xml"
                : "content.xml";
      delete parts[main];
      const expected = format === "pptx" ? "no text found" : `the archive has no "${main}"`;
      await expect(parse(zipParts(parts), format)).rejects.toThrow(expected);
    });
  }

  it("an archive declaring more entries than the limit is refused before any is listed", async () => {
    const bytes = withDeclaredEntryCount(docxBytes(handbook), MAX_ZIP_ENTRIES + 1);
    await expect(parse(bytes, "docx")).rejects.toThrow(
      `${MAX_ZIP_ENTRIES + 1} entries in the archive (limit ${MAX_ZIP_ENTRIES})`,
    );
  });

  it("a part with a document type (entity expansion) is refused", async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&b;</w:t></w:r></w:p></w:body></w:document>';
    await expect(parse(zipParts({ "word/document.xml": laughs }), "docx")).rejects.toThrow(
      '"word/document.xml" declares a document type',
    );
  });

  it("malformed XML is refused, naming the part", async () => {
    const bytes = odfBytes("application/vnd.oasis.opendocument.text", "<office:text><text:p>open");
    await expect(parse(bytes, "odt")).rejects.toThrow(/"content.xml" is not well-formed XML/);
  });

  it("xlsx: a huge sheet is read up to the row limit", async () => {
    const rows = Array.from({ length: MAX_SHEET_ROWS + 500 }, (_, i) => [`row ${i}`]);
    const doc = await parse(xlsxBytes([{ name: "Big", rows }]), "xlsx");
    const lines = doc.sections
      .map((s) => s.content)
      .join("\n")
      .split("\n");
    // Each part opens with the first row again (sheetSections): the rows read are the rest.
    const read = lines.filter((line, i) => i === 0 || line !== "row 0");
    expect(read).toHaveLength(MAX_SHEET_ROWS);
    expect(read.at(-1)).toBe(`row ${MAX_SHEET_ROWS - 1}`);
  });

  it("ods: a repeated row is written at most MAX_REPEAT times, empty repeats not at all", async () => {
    const body = `<office:spreadsheet><table:table table:name="S"><table:table-row table:number-rows-repeated="1000000"><table:table-cell table:number-columns-repeated="16384"><text:p>same</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>`;
    const doc = await parse(odfBytes("application/vnd.oasis.opendocument.spreadsheet", body), "ods");
    const lines = doc.sections
      .map((s) => s.content)
      .join("\n")
      .split("\n");
    // A first row this wide (256 cells) is not repeated atop each part: every line is a row read.
    expect(lines).toHaveLength(MAX_REPEAT);
    expect(lines[0]!.split(" | ")).toHaveLength(256);
  });
});

describe("loadDocument reads office files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "office-load-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("every format's text is found through the common loader", async () => {
    const names = await writeOfficeSamples(dir, "zanzibar");
    expect(names.map((n) => n.slice(n.lastIndexOf(".")))).toEqual([
      ".docx",
      ".pptx",
      ".xlsx",
      ".odt",
      ".odp",
      ".ods",
      ".epub",
    ]);
    for (const name of names) {
      const result = await loadDocument(join(dir, name), name);
      expect(result.ok, name).toBe(true);
      expect(result.ok && result.doc.text, name).toContain("zanzibar");
    }
  });

  it("the Latin-1 sample page is read in the encoding it declares", async () => {
    const path = join(dir, "latin1.html");
    await writeFile(path, latin1HtmlBytes("zanzibar"));
    const result = await loadDocument(path, "latin1.html");
    expect(result.ok && [result.doc.title, result.doc.text]).toEqual([
      "Grüße",
      "Grüße\n\nThe zanzibar page, in Latin-1: blåbær.",
    ]);
  });

  it("a broken office file comes back as a reason, not an exception", async () => {
    const path = join(dir, "broken.docx");
    await writeFile(path, "this is not a zip");
    const result = await loadDocument(path, "broken.docx");
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/^docx parser failed: not a readable zip archive/),
    });
  });
});

describe("WorkClock", () => {
  it("refuses the parse once its time is up", () => {
    vi.useFakeTimers();
    try {
      const clock = new WorkClock(1_000);
      clock.check();
      vi.advanceTimersByTime(1_001);
      expect(() => clock.check()).toThrow("parsing took longer than 1000 ms");
    } finally {
      vi.useRealTimers();
    }
  });
});
