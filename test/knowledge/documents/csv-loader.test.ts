// Tables kept as delimited text: read as an Excel sheet is (one section, a row a line), with the
// delimiter a comma-decimal locale writes, quoted fields, and the sheet's bounds.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseCsv, sniffDelimiter } from "../../../src/knowledge/documents/csv-loader.js";
import { MAX_ROW_CELLS, MAX_SHEET_ROWS } from "../../../src/knowledge/documents/office-sections.js";
import { DEFAULT_MAX_SECTION_CHARS } from "../../../src/knowledge/documents/split-oversized.js";
import { documentFolder, loaded, refusal } from "../../support/document-folder.js";

const { load } = documentFolder("second-look-csv-");

describe("delimited tables", () => {
  it("reads a CSV as one section headed by its name, a row a line, quoted fields whole", async () => {
    const csv =
      'Product,Price,Notes\r\n"Widget, large",12.50,"ships in\ntwo boxes"\r\nGadget,3.00,\r\n\r\n"Say ""hi""",0,\r\n';
    const doc = loaded(await load("prices.csv", csv));
    expect(doc.title).toBe("prices");
    expect(doc.sections).toHaveLength(1);
    expect(doc.sections[0]?.heading).toBe("prices");
    expect(doc.sections[0]?.content).toBe(
      'Product | Price | Notes\nWidget, large | 12.50 | ships in two boxes\nGadget | 3.00\nSay "hi" | 0',
    );
  });

  it("reads the semicolons of a comma-decimal locale as the delimiter, and a .tsv's tabs", async () => {
    const doc = loaded(await load("preise.csv", "Artikel;Preis\nSchraube;0,10\nMutter;0,05\n"));
    expect(doc.sections[0]?.content).toBe("Artikel | Preis\nSchraube | 0,10\nMutter | 0,05");
    const tsv = loaded(await load("team.tsv", "name\trole\nAda, Countess\tengineer\n"));
    expect(tsv.sections[0]?.content).toBe("name | role\nAda, Countess | engineer");
    expect(sniffDelimiter("a|b|c\n1|2|3\n")).toBe("|");
    expect(sniffDelimiter("one column\nno delimiter\n")).toBe(",");
    expect(sniffDelimiter('"x;y",z\n"p;q",r\n')).toBe(",");
  });

  it("reads UTF-8 with a byte order mark, a Windows-1252 export, and a gzip-compressed one", async () => {
    expect(loaded(await load("bom.csv", "\uFEFFcity,country\nMünchen,DE\n")).sections[0]?.content).toBe(
      "city | country\nMünchen | DE",
    );
    const ansi = Buffer.from("Stadt;Land\nMünchen;Deutschland\nZürich;Schweiz\n", "latin1");
    expect(loaded(await load("ansi.csv", ansi)).sections[0]?.content).toContain("München | Deutschland");
    const packed = loaded(await load("orders.csv.gz", gzipSync("order,total\nA-17,99\n")));
    expect(packed.sections[0]?.content).toBe("order | total\nA-17 | 99");
  });

  it("reads at most a sheet's rows and cells", () => {
    const wide = Array.from({ length: MAX_ROW_CELLS + 10 }, (_, i) => `c${i}`).join(",");
    expect(parseCsv(`${wide}\n1,2\n`, "wide").sections[0]?.content.split("\n")[0]?.split(" | ")).toHaveLength(
      MAX_ROW_CELLS,
    );
    const rows = Array.from({ length: MAX_SHEET_ROWS + 50 }, (_, i) => `row${i},x`).join("\n");
    const doc = parseCsv(`name,value\n${rows}\n`, "long");
    const bodyRows = doc.sections.flatMap((s) => s.content.split("\n").slice(1));
    // The header is the first of the sheet's rows.
    expect(bodyRows).toHaveLength(MAX_SHEET_ROWS - 1);
    expect(bodyRows.at(-1)).toBe(`row${MAX_SHEET_ROWS - 2} | x`);
  });

  it("opens every part of a long table with its column names, each part within a section's size", () => {
    const rows = Array.from(
      { length: 400 },
      (_, i) => `Part ${i},${(i * 1.25).toFixed(2)},bin ${i % 7}`,
    ).join("\n");
    const doc = parseCsv(`Part,Price,Location\n${rows}\n`, "inventory");
    expect(doc.sections.length).toBeGreaterThan(5);
    for (const section of doc.sections) {
      expect(section.heading).toBe("inventory");
      expect(section.content.split("\n")[0]).toBe("Part | Price | Location");
      expect(section.content.length).toBeLessThanOrEqual(DEFAULT_MAX_SECTION_CHARS);
    }
    const body = doc.sections.flatMap((s) => s.content.split("\n").slice(1));
    expect(body).toEqual(
      Array.from({ length: 400 }, (_, i) => `Part ${i} | ${(i * 1.25).toFixed(2)} | bin ${i % 7}`),
    );
    // A table of its header alone is that one line.
    expect(parseCsv("only,a,header\n", "empty").sections.map((s) => s.content)).toEqual([
      "only | a | header",
    ]);
  });

  it("refuses a quote left open with the reason, after a bounded read", async () => {
    const open = `id,text\n1,"never closed ${"x".repeat(600_000)}\n2,after\n`;
    expect(refusal(await load("broken.csv", open))).toMatch(/^csv parser failed: /);
  });
});
