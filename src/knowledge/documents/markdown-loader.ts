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

// The parser's cost grows with the square of container nesting (a 40 KB line of "- - - …"
// takes minutes), and no real document nests lists or quotes this deep.
const MAX_CONTAINER_NESTING = 100;
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
  assertShallowNesting(body);
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

/** Throws when a line opens more nested lists/quotes than any real document does. */
function assertShallowNesting(body: string): void {
  let lineNumber = 0;
  for (const line of body.split("\n")) {
    lineNumber++;
    const depth = containerMarkers(line);
    if (depth > MAX_CONTAINER_NESTING) {
      throw new Error(
        `lists/quotes nested ${depth} deep on line ${lineNumber} (limit ${MAX_CONTAINER_NESTING})`,
      );
    }
  }
}

/** Counts leading `>`, bullet and `1.` markers; every step advances, so it is linear in the line. */
function containerMarkers(line: string): number {
  const blank = (c: string | undefined) => c === undefined || c === " " || c === "\t";
  let depth = 0;
  let i = 0;
  while (i < line.length) {
    while (line[i] === " " || line[i] === "\t") i++;
    const c = line[i];
    if (c === ">") {
      i++;
    } else if ((c === "-" || c === "*" || c === "+") && blank(line[i + 1])) {
      i++;
    } else {
      let j = i;
      while (j - i < 9 && line[j] !== undefined && line[j]! >= "0" && line[j]! <= "9") j++;
      if (j === i || (line[j] !== "." && line[j] !== ")") || !blank(line[j + 1])) break;
      i = j + 1;
    }
    depth++;
  }
  return depth;
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
  if (depth > MAX_DEPTH) return flatText(node);
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
      out += flatText(node);
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

/**
 * All the words under a node, space separated, without recursion: the fallback past
 * MAX_DEPTH, where a recursive walk (ours or mdast-util-to-string's) could overflow the stack.
 */
function flatText(root: Nodes): string {
  const words: string[] = [];
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "html" || node.type === "definition") continue;
    if (node.type === "image" || node.type === "imageReference") words.push(node.alt ?? "");
    else if ("value" in node) words.push(node.value);
    else if ("children" in node)
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return collapseWhitespace(words.join(" "));
}
