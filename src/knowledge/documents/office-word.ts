// Word (.docx, Office Open XML) → section buckets. Paragraphs whose style is a heading open a
// section: the style's name in word/styles.xml ("heading 1"…"heading 9", the names Word keeps in
// English whatever the interface language, so a German "Überschrift 1" is found too), its
// outline level, or the paragraph's own outline level. A paragraph in the "Title" style is the
// document's title. Lists become "- " items, tables rows of " | "-joined cells. Deleted text
// (tracked changes) and field codes are not text.

import { cellText, rowLine, SectionWriter } from "./office-sections.js";
import { localName, walkXml } from "./office-xml.js";
import type { WorkClock, ZipParts } from "./office-zip.js";
import type { SectionBucket } from "./section-tree.js";

const TITLE = -1;

export interface WordText {
  buckets: SectionBucket[];
  /** Text of the first paragraph in the Title style. */
  title?: string;
}

export async function readDocx(zip: ZipParts, mainPart: string, clock: WorkClock): Promise<WordText> {
  const styles = headingStyles(await zip.text("word/styles.xml"), clock);
  const xml = await zip.required(mainPart);
  return readWordBody(mainPart, xml, styles, clock);
}

/** Style id → heading level (1–9), or TITLE. */
function headingStyles(xml: string | undefined, clock: WorkClock): Map<string, number> {
  const levels = new Map<string, number>();
  if (xml === undefined) return levels;
  let id: string | undefined;
  walkXml(
    "word/styles.xml",
    xml,
    {
      open(name, attributes) {
        const local = localName(name);
        if (local === "style")
          id = attributes["w:type"] === "paragraph" ? attributes["w:styleId"] : undefined;
        if (id === undefined) return;
        if (local === "name") {
          const level = levelOfStyleName(attributes["w:val"] ?? "");
          if (level !== undefined) levels.set(id, level);
        } else if (local === "outlineLvl" && !levels.has(id)) {
          const level = outlineLevel(attributes["w:val"]);
          if (level !== undefined) levels.set(id, level);
        }
      },
      close(name) {
        if (localName(name) === "style") id = undefined;
      },
    },
    clock,
  );
  return levels;
}

function levelOfStyleName(name: string): number | undefined {
  const heading = /^heading\s*([1-9])$/i.exec(name.trim());
  if (heading) return Number(heading[1]);
  return /^title$/i.test(name.trim()) ? TITLE : undefined;
}

/** `w:outlineLvl` is 0-based; 9 means body text. */
function outlineLevel(value: string | undefined): number | undefined {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isInteger(n) && n >= 0 && n < 9 ? n + 1 : undefined;
}

interface Paragraph {
  text: string;
  style?: string;
  outline?: number;
  listed: boolean;
}

function readWordBody(part: string, xml: string, styles: Map<string, number>, clock: WorkClock): WordText {
  const writer = new SectionWriter();
  let title: string | undefined;
  // A text box's paragraphs sit inside a paragraph of the body: the innermost is written to.
  const open: Paragraph[] = [];
  let paragraph: Paragraph | undefined;
  let inText = false;
  let tableDepth = 0;
  let row: string[] = [];
  let cell: string[] = [];
  const levelOf = (p: Paragraph): number | undefined =>
    (p.style !== undefined ? (styles.get(p.style) ?? levelOfStyleId(p.style)) : undefined) ?? p.outline;
  const endParagraph = (p: Paragraph) => {
    if (tableDepth > 0) {
      cell.push(p.text);
      return;
    }
    const level = levelOf(p);
    if (level === TITLE) {
      if (title === undefined && p.text.trim() !== "") title = p.text.trim();
      else writer.block(p.text);
    } else if (level !== undefined) writer.heading(level, p.text);
    else writer.block(p.text, p.listed ? "item" : "paragraph");
  };
  walkXml(
    part,
    xml,
    {
      open(name, attributes) {
        switch (name) {
          case "w:p":
            paragraph = { text: "", listed: false };
            open.push(paragraph);
            return;
          case "w:pStyle":
            if (paragraph) paragraph.style = attributes["w:val"];
            return;
          case "w:outlineLvl":
            if (paragraph) paragraph.outline = outlineLevel(attributes["w:val"]);
            return;
          case "w:numPr":
            if (paragraph) paragraph.listed = true;
            return;
          case "w:t":
            inText = true;
            return;
          case "w:tab":
            if (paragraph) paragraph.text += " ";
            return;
          // Word's non-breaking hyphen is an element, not a character: "e-mail", not "email".
          case "w:noBreakHyphen":
            if (paragraph) paragraph.text += "-";
            return;
          case "w:br":
          case "w:cr":
            if (paragraph) paragraph.text += "\n";
            return;
          case "w:tbl":
            tableDepth++;
            return;
          case "w:tr":
            if (tableDepth === 1) row = [];
            return;
          case "w:tc":
            if (tableDepth === 1) cell = [];
        }
      },
      text(text) {
        if (inText && paragraph) paragraph.text += text;
      },
      close(name) {
        switch (name) {
          case "w:t":
            inText = false;
            return;
          case "w:p":
            if (paragraph) endParagraph(paragraph);
            open.pop();
            paragraph = open[open.length - 1];
            return;
          case "w:tc":
            if (tableDepth === 1) row.push(cellText(cell.join(" ")));
            return;
          case "w:tr":
            if (tableDepth === 1) writer.block(rowLine(row), "row");
            return;
          case "w:tbl":
            tableDepth = Math.max(0, tableDepth - 1);
        }
      },
    },
    clock,
  );
  return { buckets: writer.finish(), ...(title !== undefined ? { title } : {}) };
}

/** A style id without styles.xml: Word's own ids for its built-in styles. */
function levelOfStyleId(id: string): number | undefined {
  return levelOfStyleName(id.replace(/^heading(\d)$/i, "heading $1"));
}
