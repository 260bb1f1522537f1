// OpenDocument (.odt, .odp, .ods: content.xml) → section buckets. Text documents: `text:h` opens
// a section at its outline level, paragraphs and list items fill it, table rows become lines of
// " | "-joined cells. Presentations: one section per `draw:page`, headed by its title frame (else
// the page's name); speaker notes are left out. Spreadsheets: each `table:table` in sections of
// its rows as lines, each opening with its first row (office-sections.ts sheetSections), repeated
// rows and cells read at most MAX_REPEAT times, at most MAX_SHEET_ROWS rows a sheet. Annotations and tracked deletions are not text.

import {
  cellText,
  MAX_PARTS,
  MAX_ROW_CELLS,
  MAX_SHEET_ROWS,
  repeatCount,
  rowLine,
  SectionWriter,
  sheetSections,
} from "./office-sections.js";
import { EnoughRead, walkXml } from "./office-xml.js";
import type { WorkClock } from "./office-zip.js";
import type { SectionBucket } from "./section-tree.js";

export type OpenDocumentKind = "text" | "presentation" | "spreadsheet";

/** Elements whose text is not the document's. */
const SKIPPED = new Set(["office:annotation", "text:tracked-changes", "presentation:notes", "office:forms"]);

interface OdfState {
  writer: SectionWriter;
  buckets: SectionBucket[];
  /** Open paragraphs, innermost last (a frame's text box may sit inside a paragraph). */
  paragraphs: { text: string; level?: number }[];
  skipped: number;
  listDepth: number;
  tableDepth: number;
  row?: { cells: string[]; repeat: number };
  cell?: { texts: string[]; repeat: number };
  parts: number;
  rows: number;
  /** A spreadsheet's current sheet: its name and rows, cut into sections when it ends (sheetSections). */
  sheet?: { name: string; rows: string[] };
  pageTitle?: string;
  inTitleFrame: boolean;
}

export function readOpenDocument(xml: string, kind: OpenDocumentKind, clock: WorkClock): SectionBucket[] {
  const state: OdfState = {
    writer: new SectionWriter(),
    buckets: [],
    paragraphs: [],
    skipped: 0,
    listDepth: 0,
    tableDepth: 0,
    parts: 0,
    rows: 0,
    inTitleFrame: false,
  };
  walkXml(
    "content.xml",
    xml,
    {
      open: (name, attributes) => openElement(state, kind, name, attributes),
      text: (text) => {
        const top = state.paragraphs[state.paragraphs.length - 1];
        if (state.skipped === 0 && top) top.text += text;
      },
      close: (name) => closeElement(state, kind, name),
    },
    clock,
  );
  flushPart(state);
  return state.buckets;
}

function openElement(
  state: OdfState,
  kind: OpenDocumentKind,
  name: string,
  attributes: Record<string, string>,
): void {
  if (SKIPPED.has(name)) state.skipped++;
  if (state.skipped > 0) return;
  const top = state.paragraphs[state.paragraphs.length - 1];
  switch (name) {
    case "text:p":
    case "text:h": {
      const level =
        name === "text:h" ? Number.parseInt(attributes["text:outline-level"] ?? "1", 10) : undefined;
      state.paragraphs.push(
        level !== undefined && Number.isFinite(level) ? { text: "", level } : { text: "" },
      );
      return;
    }
    case "text:s":
      if (top) top.text += " ".repeat(repeatCount(attributes["text:c"]));
      return;
    case "text:tab":
      if (top) top.text += " ";
      return;
    case "text:line-break":
      if (top) top.text += "\n";
      return;
    case "text:list":
      state.listDepth++;
      return;
    case "table:table":
      state.tableDepth++;
      if (kind === "spreadsheet" && state.tableDepth === 1)
        startPart(state, attributes["table:name"] ?? "", kind);
      return;
    case "table:table-row":
      if (state.tableDepth === 1)
        state.row = { cells: [], repeat: repeatCount(attributes["table:number-rows-repeated"]) };
      return;
    case "table:table-cell":
    case "table:covered-table-cell":
      if (state.tableDepth === 1)
        state.cell = { texts: [], repeat: repeatCount(attributes["table:number-columns-repeated"]) };
      return;
    case "draw:page":
      startPart(state, attributes["draw:name"] ?? "", kind);
      return;
    case "draw:frame":
      if (kind === "presentation" && attributes["presentation:class"] === "title") state.inTitleFrame = true;
  }
}

function closeElement(state: OdfState, kind: OpenDocumentKind, name: string): void {
  if (SKIPPED.has(name)) {
    state.skipped--;
    return;
  }
  if (state.skipped > 0) return;
  switch (name) {
    case "text:p":
    case "text:h": {
      const paragraph = state.paragraphs.pop();
      if (paragraph) endParagraph(state, kind, paragraph);
      return;
    }
    case "text:list":
      state.listDepth = Math.max(0, state.listDepth - 1);
      return;
    case "table:table-cell":
    case "table:covered-table-cell":
      if (state.tableDepth === 1 && state.cell && state.row) {
        const text = cellText(state.cell.texts.join(" "));
        const room = MAX_ROW_CELLS - state.row.cells.length;
        for (let i = 0; i < Math.min(state.cell.repeat, room); i++) state.row.cells.push(text);
      }
      state.cell = undefined;
      return;
    case "table:table-row":
      if (state.tableDepth === 1 && state.row) endRow(state, kind, state.row);
      state.row = undefined;
      return;
    case "table:table":
      state.tableDepth = Math.max(0, state.tableDepth - 1);
      return;
    case "draw:frame":
      state.inTitleFrame = false;
  }
}

function endParagraph(
  state: OdfState,
  kind: OpenDocumentKind,
  paragraph: { text: string; level?: number },
): void {
  if (state.cell && state.tableDepth > 0) {
    state.cell.texts.push(paragraph.text);
    return;
  }
  if (state.inTitleFrame) {
    const title = `${state.pageTitle ?? ""} ${paragraph.text}`.trim();
    state.pageTitle = title;
    return;
  }
  if (kind === "text" && paragraph.level !== undefined) state.writer.heading(paragraph.level, paragraph.text);
  else state.writer.block(paragraph.text, state.listDepth > 0 ? "item" : "paragraph");
}

function endRow(state: OdfState, kind: OpenDocumentKind, row: { cells: string[]; repeat: number }): void {
  const line = rowLine(row.cells);
  if (line === "") return;
  for (let i = 0; i < row.repeat; i++) {
    if (kind !== "spreadsheet") state.writer.block(line, "row");
    else if (++state.rows > MAX_SHEET_ROWS) return;
    else state.sheet?.rows.push(line);
  }
}

/** A new sheet or slide: the previous one's section is closed first. */
function startPart(state: OdfState, name: string, kind: OpenDocumentKind): void {
  if (++state.parts > MAX_PARTS) throw new EnoughRead();
  flushPart(state);
  state.rows = 0;
  const heading = name || `Part ${state.parts}`;
  if (kind === "spreadsheet") state.sheet = { name: heading, rows: [] };
  else state.writer.heading(1, heading);
}

function flushPart(state: OdfState): void {
  const buckets = state.writer.finish();
  if (state.sheet) buckets.unshift(...sheetSections(state.sheet.name, state.sheet.rows));
  state.sheet = undefined;
  if (state.pageTitle !== undefined && buckets[0]) buckets[0].heading = state.pageTitle;
  state.pageTitle = undefined;
  state.buckets.push(...buckets);
  state.writer = new SectionWriter();
}
