// Minimal valid Office Open XML, OpenDocument and EPUB files, written at test time (fflate's zip
// writer): the parts the formats require and the markup the loaders read, nothing downloaded.
// Shared by the loader tests and any test that needs such files in a folder (a packaged CLI's).

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { strToU8, type Zippable, zipSync } from "fflate";

export interface FixtureSection {
  heading: string;
  paragraphs: readonly string[];
  /** List items after the paragraphs. */
  items?: readonly string[];
  /** A table after the items. */
  rows?: readonly (readonly string[])[];
}

export interface FixtureDocument {
  /** The core/meta title (docProps/core.xml, meta.xml); none when absent. */
  title?: string;
  sections: readonly FixtureSection[];
}

export interface FixtureSlide {
  title: string;
  lines: readonly string[];
}

export interface FixtureSheet {
  name: string;
  rows: readonly (readonly (string | number)[])[];
}

/** A zip of the given parts (text parts as UTF-8); `stored` names parts kept uncompressed. */
export function zipParts(
  parts: Readonly<Record<string, string | Uint8Array>>,
  stored: readonly string[] = [],
): Uint8Array {
  const files: Zippable = {};
  for (const [name, body] of Object.entries(parts)) {
    const bytes = typeof body === "string" ? strToU8(body) : body;
    files[name] = stored.includes(name) ? [bytes, { level: 0 }] : bytes;
  }
  return zipSync(files, { level: 6 });
}

export function xmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships";

function coreXml(title: string | undefined): string {
  const said = title === undefined ? "" : `<dc:title>${xmlEscape(title)}</dc:title>`;
  return `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${said}</cp:coreProperties>`;
}

function packageRels(main: string): string {
  return `${XML}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${main}"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`;
}

function contentTypes(overrides: Readonly<Record<string, string>>): string {
  const items = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join("");
  return `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${items}</Types>`;
}

const wordParagraph = (text: string, style?: string, listed = false): string => {
  const props =
    style !== undefined || listed
      ? `<w:pPr>${style !== undefined ? `<w:pStyle w:val="${style}"/>` : ""}${listed ? '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' : ""}</w:pPr>`
      : "";
  return `<w:p>${props}<w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r></w:p>`;
};

/**
 * A .docx: each section's heading in the "Heading 1" style (its style id `berschrift1`, as a
 * German Word writes it, so only styles.xml's English name tells it is a heading).
 */
export function docxBytes(doc: FixtureDocument): Uint8Array {
  const body = doc.sections
    .map((section) => {
      const rows = (section.rows ?? [])
        .map((row) => `<w:tr>${row.map((c) => `<w:tc>${wordParagraph(c)}</w:tc>`).join("")}</w:tr>`)
        .join("");
      return [
        wordParagraph(section.heading, "berschrift1"),
        ...section.paragraphs.map((p) => wordParagraph(p)),
        ...(section.items ?? []).map((i) => wordParagraph(i, undefined, true)),
        rows === "" ? "" : `<w:tbl>${rows}</w:tbl>`,
      ].join("");
    })
    .join("");
  const styles = `${XML}<w:styles ${W}><w:style w:type="paragraph" w:styleId="Standard"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style></w:styles>`;
  return zipParts({
    "[Content_Types].xml": contentTypes({
      "word/document.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    }),
    "_rels/.rels": packageRels("word/document.xml"),
    "docProps/core.xml": coreXml(doc.title),
    "word/styles.xml": styles,
    "word/document.xml": `${XML}<w:document ${W} ${R}><w:body>${body}<w:sectPr/></w:body></w:document>`,
  });
}

/** A .pptx: each slide a title placeholder and one body text box. */
export function pptxBytes(slides: readonly FixtureSlide[], title?: string): Uint8Array {
  const P =
    'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
  const parts: Record<string, string> = {
    "[Content_Types].xml": contentTypes({
      "ppt/presentation.xml":
        "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    }),
    "_rels/.rels": packageRels("ppt/presentation.xml"),
    "docProps/core.xml": coreXml(title),
  };
  const ids = slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("");
  parts["ppt/presentation.xml"] =
    `${XML}<p:presentation ${P} ${R}><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>`;
  parts["ppt/_rels/presentation.xml.rels"] = `${XML}<Relationships xmlns="${PKG_RELS}">${slides
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/slide" Target="slides/slide${i + 1}.xml"/>`)
    .join("")}</Relationships>`;
  slides.forEach((slide, i) => {
    const shape = (placeholder: string, paragraphs: readonly string[]) =>
      `<p:sp><p:nvSpPr><p:cNvPr id="${i}" name="s"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/>${paragraphs
        .map((p) => `<a:p><a:r><a:t>${xmlEscape(p)}</a:t></a:r></a:p>`)
        .join("")}</p:txBody></p:sp>`;
    parts[`ppt/slides/slide${i + 1}.xml`] =
      `${XML}<p:sld ${P}><p:cSld><p:spTree>${shape('<p:ph type="title"/>', [slide.title])}${shape('<p:ph idx="1"/>', slide.lines)}</p:spTree></p:cSld></p:sld>`;
  });
  return zipParts(parts);
}

/** A .xlsx: strings through the shared string table, numbers as values. */
export function xlsxBytes(sheets: readonly FixtureSheet[], title?: string): Uint8Array {
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const shared: string[] = [];
  const indexes = new Map<string, number>();
  const sharedIndex = (text: string) => {
    let at = indexes.get(text);
    if (at === undefined) {
      at = shared.push(text) - 1;
      indexes.set(text, at);
    }
    return at;
  };
  const parts: Record<string, string> = {
    "[Content_Types].xml": contentTypes({
      "xl/workbook.xml": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
    }),
    "_rels/.rels": packageRels("xl/workbook.xml"),
    "docProps/core.xml": coreXml(title),
    "xl/workbook.xml": `${XML}<workbook ${S} ${R}><sheets>${sheets
      .map((s, i) => `<sheet name="${xmlEscape(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join("")}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `${XML}<Relationships xmlns="${PKG_RELS}">${sheets
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join("")}</Relationships>`,
  };
  sheets.forEach((sheet, i) => {
    const rows = sheet.rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row
            .map((cell) =>
              typeof cell === "number" ? `<c><v>${cell}</v></c>` : `<c t="s"><v>${sharedIndex(cell)}</v></c>`,
            )
            .join("")}</row>`,
      )
      .join("");
    parts[`xl/worksheets/sheet${i + 1}.xml`] =
      `${XML}<worksheet ${S}><sheetData>${rows}</sheetData></worksheet>`;
  });
  parts["xl/sharedStrings.xml"] = `${XML}<sst ${S} count="${shared.length}">${shared
    .map((s) => `<si><t xml:space="preserve">${xmlEscape(s)}</t></si>`)
    .join("")}</sst>`;
  return zipParts(parts);
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"';

/** An OpenDocument zip: `mimetype` first and stored, the manifest, meta.xml and content.xml. */
export function odfBytes(mimetype: string, body: string, title?: string): Uint8Array {
  const meta = `${XML}<office:document-meta ${ODF_NS}><office:meta>${title === undefined ? "" : `<dc:title>${xmlEscape(title)}</dc:title>`}</office:meta></office:document-meta>`;
  return zipParts(
    {
      mimetype,
      "META-INF/manifest.xml": `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
      "meta.xml": meta,
      "content.xml": `${XML}<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
    },
    ["mimetype"],
  );
}

const odfParagraph = (text: string) => `<text:p>${xmlEscape(text)}</text:p>`;

export function odtBytes(doc: FixtureDocument): Uint8Array {
  const body = doc.sections
    .map((section) => {
      const items = (section.items ?? [])
        .map((i) => `<text:list-item>${odfParagraph(i)}</text:list-item>`)
        .join("");
      const rows = (section.rows ?? [])
        .map(
          (row) =>
            `<table:table-row>${row.map((c) => `<table:table-cell>${odfParagraph(c)}</table:table-cell>`).join("")}</table:table-row>`,
        )
        .join("");
      return [
        `<text:h text:outline-level="1">${xmlEscape(section.heading)}</text:h>`,
        ...section.paragraphs.map(odfParagraph),
        items === "" ? "" : `<text:list>${items}</text:list>`,
        rows === "" ? "" : `<table:table table:name="T">${rows}</table:table>`,
      ].join("");
    })
    .join("");
  return odfBytes("application/vnd.oasis.opendocument.text", `<office:text>${body}</office:text>`, doc.title);
}

export function odpBytes(slides: readonly FixtureSlide[], title?: string): Uint8Array {
  const pages = slides
    .map(
      (slide, i) =>
        `<draw:page draw:name="page${i + 1}"><draw:frame presentation:class="title"><draw:text-box>${odfParagraph(slide.title)}</draw:text-box></draw:frame><draw:frame presentation:class="outline"><draw:text-box>${slide.lines
          .map(odfParagraph)
          .join(
            "",
          )}</draw:text-box></draw:frame><presentation:notes><draw:frame><draw:text-box>${odfParagraph("speaker notes only")}</draw:text-box></draw:frame></presentation:notes></draw:page>`,
    )
    .join("");
  return odfBytes(
    "application/vnd.oasis.opendocument.presentation",
    `<office:presentation>${pages}</office:presentation>`,
    title,
  );
}

/** An .ods, with the repeated empty cells and rows (to the sheet's end) that real files carry. */
export function odsBytes(sheets: readonly FixtureSheet[], title?: string): Uint8Array {
  const tables = sheets
    .map((sheet) => {
      const rows = sheet.rows
        .map(
          (row) =>
            `<table:table-row>${row.map((c) => `<table:table-cell>${odfParagraph(String(c))}</table:table-cell>`).join("")}<table:table-cell table:number-columns-repeated="1020"/></table:table-row>`,
        )
        .join("");
      return `<table:table table:name="${xmlEscape(sheet.name)}">${rows}<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>`;
    })
    .join("");
  return odfBytes(
    "application/vnd.oasis.opendocument.spreadsheet",
    `<office:spreadsheet>${tables}</office:spreadsheet>`,
    title,
  );
}

export interface FixtureChapter {
  title: string;
  paragraphs: readonly string[];
}

export function epubBytes(chapters: readonly FixtureChapter[], title?: string): Uint8Array {
  const parts: Record<string, string> = {
    mimetype: "application/epub+zip",
    "META-INF/container.xml": `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
  };
  const manifest = chapters
    .map(
      (_, i) => `<item id="c${i + 1}" href="text/chapter${i + 1}.xhtml" media-type="application/xhtml+xml"/>`,
    )
    .join("");
  // The spine lists the chapters last first: reading order is the spine's, not the files'.
  const spine = chapters.map((_, i) => `<itemref idref="c${chapters.length - i}"/>`).join("");
  parts["OEBPS/content.opf"] =
    `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">${title === undefined ? "" : `<dc:title>${xmlEscape(title)}</dc:title>`}</metadata><manifest>${manifest}</manifest><spine>${spine}</spine></package>`;
  chapters.forEach((chapter, i) => {
    parts[`OEBPS/text/chapter${i + 1}.xhtml`] =
      `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${xmlEscape(chapter.title)}</title></head><body><h1>${xmlEscape(chapter.title)}</h1>${chapter.paragraphs
        .map((p) => `<p>${xmlEscape(p)}</p>`)
        .join("")}</body></html>`;
  });
  return zipParts(parts, ["mimetype"]);
}

/** One sample file per format, each holding `marker` in its text; returns the file names written. */
export async function writeOfficeSamples(dir: string, marker: string): Promise<string[]> {
  const doc: FixtureDocument = {
    title: `Sample ${marker}`,
    sections: [{ heading: "Overview", paragraphs: [`The ${marker} paragraph.`] }],
  };
  const slides = [{ title: "Overview", lines: [`The ${marker} slide.`] }];
  const sheets = [
    {
      name: "Data",
      rows: [
        ["Key", "Value"],
        [marker, 1],
      ],
    },
  ];
  const files: Record<string, Uint8Array> = {
    "sample.docx": docxBytes(doc),
    "sample.pptx": pptxBytes(slides),
    "sample.xlsx": xlsxBytes(sheets),
    "sample.odt": odtBytes(doc),
    "sample.odp": odpBytes(slides),
    "sample.ods": odsBytes(sheets),
    "sample.epub": epubBytes([{ title: "Overview", paragraphs: [`The ${marker} chapter.`] }]),
  };
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
  return Object.keys(files);
}

/**
 * A copy of a zip whose entry `name` declares `size` inflated bytes (central directory and local
 * header): a bomb's claim (huge) or a lie (smaller than what the entry inflates to).
 */
export function withDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const bytes = Buffer.from(zip);
  let found = false;
  for (let at = bytes.indexOf(CENTRAL_SIGNATURE); at !== -1; at = bytes.indexOf(CENTRAL_SIGNATURE, at + 4)) {
    const nameLength = bytes.readUInt16LE(at + 28);
    if (bytes.toString("utf8", at + 46, at + 46 + nameLength) !== name) continue;
    bytes.writeUInt32LE(size, at + 24);
    bytes.writeUInt32LE(size, bytes.readUInt32LE(at + 42) + 22);
    found = true;
  }
  if (!found) throw new TypeError(`no entry "${name}" in the zip`);
  return new Uint8Array(bytes);
}

const CENTRAL_SIGNATURE = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** A copy of a zip whose end record claims `count` entries (what a reader sees before listing any). */
export function withDeclaredEntryCount(zip: Uint8Array, count: number): Uint8Array {
  const bytes = Buffer.from(zip);
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end === -1) throw new TypeError("no end of central directory record");
  bytes.writeUInt16LE(count, end + 8);
  bytes.writeUInt16LE(count, end + 10);
  return new Uint8Array(bytes);
}

/** An HTML page in ISO-8859-1 that says so in its `<meta>`, holding `marker` (and "Grüße"). */
export function latin1HtmlBytes(marker: string): Uint8Array {
  const page = `<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><title>Grüße</title></head><body><h1>Grüße</h1><p>The ${marker} page, in Latin-1: blåbær.</p></body></html>`;
  return new Uint8Array(Buffer.from(page, "latin1"));
}
