// PowerPoint (.pptx, Office Open XML) → one section per slide, in the presentation's order
// (ppt/presentation.xml's slide list through its relationships; the slide files' numbers when
// that list is missing). The slide's title placeholder is the section's heading ("Slide 3" when
// it has none); the other shapes' paragraphs and table rows are its text.

import { cellText, MAX_PARTS, rowLine, SectionWriter } from "./office-sections.js";
import { partRelationships, walkXml } from "./office-xml.js";
import type { WorkClock, ZipParts } from "./office-zip.js";
import type { SectionBucket } from "./section-tree.js";

const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);

export interface SlideText {
  buckets: SectionBucket[];
  /** The first slide's title. */
  firstTitle?: string;
}

export async function readPptx(zip: ZipParts, clock: WorkClock): Promise<SlideText> {
  const slides = (await slideOrder(zip, clock)).slice(0, MAX_PARTS);
  const buckets: SectionBucket[] = [];
  let firstTitle: string | undefined;
  for (const [index, part] of slides.entries()) {
    const xml = await zip.text(part);
    if (xml === undefined) continue;
    const slide = readSlide(part, xml, clock);
    if (index === 0 && slide.title !== "") firstTitle = slide.title;
    const writer = new SectionWriter();
    writer.heading(1, slide.title || `Slide ${index + 1}`);
    for (const block of slide.blocks) writer.block(block.text, block.kind);
    buckets.push(...writer.finish());
  }
  return { buckets, ...(firstTitle !== undefined ? { firstTitle } : {}) };
}

async function slideOrder(zip: ZipParts, clock: WorkClock): Promise<string[]> {
  const presentation = await zip.text("ppt/presentation.xml");
  const rels = await partRelationships(zip, "ppt/presentation.xml", clock);
  const ordered: string[] = [];
  if (presentation !== undefined) {
    walkXml(
      "ppt/presentation.xml",
      presentation,
      {
        open(name, attributes) {
          if (name !== "p:sldId") return;
          const target = rels.get(attributes["r:id"] ?? "");
          if (target !== undefined && ordered.length < MAX_PARTS) ordered.push(target);
        },
      },
      clock,
    );
  }
  if (ordered.length > 0) return ordered;
  return zip
    .names()
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => slideNumber(a) - slideNumber(b));
}

function slideNumber(name: string): number {
  return Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
}

interface Slide {
  title: string;
  blocks: { text: string; kind: "paragraph" | "row" }[];
}

function readSlide(part: string, xml: string, clock: WorkClock): Slide {
  const slide: Slide = { title: "", blocks: [] };
  let shapeIsTitle = false;
  let shapeParagraphs: string[] = [];
  let paragraph: string | undefined;
  let inText = false;
  let row: string[] | undefined;
  let cell: string[] | undefined;
  walkXml(
    part,
    xml,
    {
      open(name, attributes) {
        switch (name) {
          case "p:sp":
            shapeIsTitle = false;
            shapeParagraphs = [];
            return;
          case "p:ph":
            if (TITLE_PLACEHOLDERS.has(attributes.type ?? "")) shapeIsTitle = true;
            return;
          case "a:p":
            paragraph = "";
            return;
          case "a:t":
            inText = true;
            return;
          case "a:br":
            if (paragraph !== undefined) paragraph += "\n";
            return;
          case "a:tr":
            row = [];
            return;
          case "a:tc":
            cell = [];
        }
      },
      text(text) {
        if (inText && paragraph !== undefined) paragraph += text;
      },
      close(name) {
        switch (name) {
          case "a:t":
            inText = false;
            return;
          case "a:p":
            if (paragraph !== undefined) (cell ?? shapeParagraphs).push(paragraph);
            paragraph = undefined;
            return;
          case "a:tc":
            if (row && cell) row.push(cellText(cell.join(" ")));
            cell = undefined;
            return;
          case "a:tr":
            if (row) slide.blocks.push({ text: rowLine(row), kind: "row" });
            row = undefined;
            return;
          case "p:sp":
            if (shapeIsTitle && slide.title === "")
              slide.title = shapeParagraphs.join(" ").replace(/\s+/g, " ").trim();
            else for (const text of shapeParagraphs) slide.blocks.push({ text, kind: "paragraph" });
            shapeParagraphs = [];
        }
      },
    },
    clock,
  );
  return slide;
}
