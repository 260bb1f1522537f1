// Excel (.xlsx, Office Open XML) → each sheet in sections headed by its name, each row one line of
// " | "-joined cells (shared strings resolved, numbers as stored), each section opening with the
// sheet's first row (office-sections.ts sheetSections). Bounded: at most
// MAX_SHEET_ROWS rows and MAX_ROW_CELLS cells per row are read, the rest of a sheet is skipped
// unread.

import {
  cellText,
  MAX_PARTS,
  MAX_ROW_CELLS,
  MAX_SHEET_ROWS,
  rowLine,
  sheetSections,
} from "./office-sections.js";
import { EnoughRead, localName, partRelationships, walkXml } from "./office-xml.js";
import type { WorkClock, ZipParts } from "./office-zip.js";
import type { SectionBucket } from "./section-tree.js";

export async function readXlsx(zip: ZipParts, clock: WorkClock): Promise<SectionBucket[]> {
  const sheets = await sheetList(zip, clock);
  const shared = sharedStrings(await zip.text("xl/sharedStrings.xml"), clock);
  const buckets: SectionBucket[] = [];
  for (const sheet of sheets.slice(0, MAX_PARTS)) {
    const xml = await zip.text(sheet.part);
    if (xml === undefined) continue;
    buckets.push(...sheetSections(sheet.name, sheetRows(sheet.part, xml, shared, clock)));
  }
  return buckets;
}

async function sheetList(zip: ZipParts, clock: WorkClock): Promise<{ name: string; part: string }[]> {
  const workbook = await zip.required("xl/workbook.xml");
  const rels = await partRelationships(zip, "xl/workbook.xml", clock);
  const sheets: { name: string; part: string }[] = [];
  walkXml(
    "xl/workbook.xml",
    workbook,
    {
      open(name, attributes) {
        if (name !== "sheet" && localName(name) !== "sheet") return;
        const part = rels.get(attributes["r:id"] ?? "");
        if (part !== undefined) sheets.push({ name: attributes.name ?? part, part });
      },
    },
    clock,
  );
  return sheets;
}

/** The shared string table: each `si`'s text runs joined (phonetic runs left out). */
function sharedStrings(xml: string | undefined, clock: WorkClock): string[] {
  const strings: string[] = [];
  if (xml === undefined) return strings;
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  walkXml(
    "xl/sharedStrings.xml",
    xml,
    {
      open(name) {
        const local = localName(name);
        if (local === "si") current = "";
        else if (local === "rPh") phonetic++;
        else if (local === "t") inText = phonetic === 0;
      },
      text(text) {
        if (inText && current !== undefined) current += text;
      },
      close(name) {
        const local = localName(name);
        if (local === "t") inText = false;
        else if (local === "rPh") phonetic--;
        else if (local === "si") {
          strings.push(current ?? "");
          current = undefined;
        }
      },
    },
    clock,
  );
  return strings;
}

function sheetRows(part: string, xml: string, shared: readonly string[], clock: WorkClock): string[] {
  const lines: string[] = [];
  let rows = 0;
  let row: string[] | undefined;
  let cellType = "";
  let value: string | undefined;
  let inValue = false;
  walkXml(
    part,
    xml,
    {
      open(name, attributes) {
        const local = localName(name);
        if (local === "row") {
          if (++rows > MAX_SHEET_ROWS) throw new EnoughRead();
          row = [];
        } else if (local === "c") {
          cellType = attributes.t ?? "n";
          value = undefined;
        } else if (local === "v" || local === "t") {
          inValue = true;
          value ??= "";
        }
      },
      text(text) {
        if (inValue) value += text;
      },
      close(name) {
        const local = localName(name);
        if (local === "v" || local === "t") inValue = false;
        else if (local === "c") {
          if (row && row.length < MAX_ROW_CELLS) row.push(cellText(cellValue(cellType, value, shared)));
        } else if (local === "row") {
          const line = row ? rowLine(row) : "";
          if (line !== "") lines.push(line);
          row = undefined;
        }
      },
    },
    clock,
  );
  return lines;
}

function cellValue(type: string, value: string | undefined, shared: readonly string[]): string {
  if (value === undefined) return "";
  switch (type) {
    case "s":
      return shared[Number.parseInt(value, 10)] ?? "";
    case "b":
      return value === "1" ? "TRUE" : "FALSE";
    default:
      return value;
  }
}
