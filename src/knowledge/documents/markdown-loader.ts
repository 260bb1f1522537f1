import type { List, Nodes, PhrasingContent, Root, RootContent, Table } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString as mdastToString } from "mdast-util-to-string";
import { gfm } from "micromark-extension-gfm";
import { splitFrontMatter } from "./front-matter.js";
import { htmlFragmentText } from "./html-loader.js";
import type { ParsedDocument } from "./loaded-document.js";
import { collapseWhitespace, joinBlocks, tidyLines } from "./plain-text.js";
import { buildSections, type SectionBucket } from "./section-tree.js";

export interface MarkdownOptions {
  /** MDX: top-level `import`/`export` statements are code, not prose, and are dropped. */
  mdx?: boolean;
}

// Deeper nesting (quotes in lists in quotes …) is flattened to its text rather than walked,
// so a hostile file cannot drive the renderer's recursion arbitrarily deep.
const MAX_DEPTH = 32;

/**
 * Markdown (CommonMark + GFM) to plain-text sections. Every heading opens a section; text
 * before the first heading is a section of its own. Title: front matter `title:`, else the
 * first H1, else the file name. Front matter never reaches the content.
 *
 * @param source decoded text with LF line endings
 * @param fileTitle fallback title (the file name without extension)
 */
export function parseMarkdown(
  source: string,
  fileTitle: string,
  options: MarkdownOptions = {},
): ParsedDocument {
  const { fields, body } = splitFrontMatter(source);
  const tree: Root = fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

  const buckets: SectionBucket[] = [];
  let current: SectionBucket = { level: 0, content: "" };
  let blocks: string[] = [];
  let firstH1: string | undefined;
  const close = () => {
    buckets.push({ ...current, content: joinBlocks(blocks) });
    blocks = [];
  };
  for (const node of tree.children) {
    if (node.type === "heading") {
      const heading = collapseWhitespace(mdastToString(node, { includeHtml: false }));
      // An empty `#` line is not a heading anyone can navigate to.
      if (heading === "") continue;
      close();
      current = { level: node.depth, heading, content: "" };
      if (node.depth === 1 && firstH1 === undefined) firstH1 = heading;
      continue;
    }
    if (options.mdx && isEsmStatement(node)) continue;
    blocks.push(renderBlock(node, 0));
  }
  close();

  const title = collapseWhitespace(fields.title ?? "") || firstH1 || fileTitle;
  const doc: ParsedDocument = { title, sections: buildSections(title, buckets) };
  if (fields.url) doc.url = fields.url;
  const modified = isoDate(fields.updated ?? fields.modified ?? fields.last_modified ?? fields.lastmodified);
  if (modified) doc.modifiedTime = modified;
  return doc;
}

function isEsmStatement(node: RootContent): boolean {
  return node.type === "paragraph" && /^(import|export)\s/.test(mdastToString(node));
}

function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function renderBlock(node: Nodes, depth: number): string {
  if (depth > MAX_DEPTH) return collapseWhitespace(mdastToString(node, { includeHtml: false }));
  switch (node.type) {
    case "paragraph":
    case "heading":
      return renderInline(node.children, depth);
    case "code":
      return tidyLines(node.value);
    case "html":
      return htmlFragmentText(node.value);
    case "blockquote":
      return joinBlocks(node.children.map((child) => renderBlock(child, depth + 1)));
    case "list":
      return renderList(node, depth);
    case "table":
      return renderTable(node);
    case "footnoteDefinition": {
      const text = joinBlocks(node.children.map((child) => renderBlock(child, depth + 1)));
      return text === "" ? "" : `[${node.label ?? node.identifier}] ${text}`;
    }
    // Link definitions, rules and front-matter-like nodes carry no prose.
    case "definition":
    case "thematicBreak":
    case "yaml":
      return "";
    default:
      return "children" in node
        ? joinBlocks(node.children.map((child) => renderBlock(child, depth + 1)))
        : "value" in node
          ? node.value
          : "";
  }
}

/**
 * One item per line with a plain marker (`-` or the item number), nested items indented,
 * so steps and enumerations stay readable and never run together into one sentence.
 */
function renderList(list: List, depth: number): string {
  const lines: string[] = [];
  let number = list.start ?? 1;
  for (const item of list.children) {
    const marker = list.ordered ? `${number++}.` : "-";
    const blocks = item.children.map((child) => renderBlock(child, depth + 1)).filter((b) => b !== "");
    const body = blocks.join("\n").split("\n");
    lines.push(`${marker} ${body[0] ?? ""}`.trimEnd());
    for (const line of body.slice(1)) lines.push(line === "" ? "" : `  ${line}`);
  }
  return lines.join("\n");
}

/** Header row then one line per row, cells joined by ` | `: readable, without the grid rules. */
function renderTable(table: Table): string {
  return table.children
    .map((row) => row.children.map((cell) => renderInline(cell.children, 0)).join(" | "))
    .filter((line) => line.replace(/[|\s]/g, "") !== "")
    .join("\n");
}

/** Soft line breaks become spaces (they are source wrapping); hard breaks stay as newlines. */
function renderInline(nodes: readonly PhrasingContent[], depth: number): string {
  let out = "";
  for (const node of nodes) {
    if (depth > MAX_DEPTH) {
      out += mdastToString(node, { includeHtml: false });
      continue;
    }
    switch (node.type) {
      case "text":
      case "inlineCode":
        out += node.value.replace(/\s*\n\s*/g, " ");
        break;
      case "break":
        out += "\n";
        break;
      case "image":
      case "imageReference":
        out += node.alt ?? "";
        break;
      // Inline tags (<kbd>, <b>, …) are markup around words that are already text; <br> is a line break.
      case "html":
        if (/^<br\s*\/?>$/i.test(node.value)) out += "\n";
        break;
      case "footnoteReference":
        break;
      default:
        out += "children" in node ? renderInline(node.children, depth + 1) : "";
    }
  }
  return out
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .trim();
}
