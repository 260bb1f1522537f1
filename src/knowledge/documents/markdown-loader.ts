import type { List, Nodes, PhrasingContent, Root, RootContent, Table } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString as mdastToString } from "mdast-util-to-string";
import { gfm } from "micromark-extension-gfm";
import { SecondLookError } from "../../errors.js";
import { splitFrontMatter } from "./front-matter.js";
import { htmlFragmentText } from "./html-loader.js";
import type { ParsedDocument } from "./loaded-document.js";
import { collapseWhitespace, joinBlocks, tidyLines } from "./plain-text.js";
import { buildSections, type SectionBucket } from "./section-tree.js";

export interface MarkdownOptions {
  /** MDX: top-level `import`/`export` statements are code, not prose, and are dropped. */
  mdx?: boolean;
  /** A body longer than this is parsed in chunks of about this size (MARKDOWN_CHUNK_CHARS). */
  chunkChars?: number;
}

/**
 * The parser holds a syntax tree of a few hundred bytes per source byte (a 9.9 MB file: 2.7 GB),
 * so a longer body is parsed in chunks of about this size, cut only where a block starts afresh:
 * the text extracted is the same as from one parse (see markdownChunks), and memory is bounded
 * by the chunk, not the file.
 */
export const MARKDOWN_CHUNK_CHARS = 256 * 1024;

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

  const buckets: SectionBucket[] = [];
  let current: SectionBucket = { level: 0, content: "" };
  let blocks: string[] = [];
  let firstH1: string | undefined;
  const close = () => {
    buckets.push({ ...current, content: joinBlocks(blocks) });
    blocks = [];
  };
  for (const node of topLevelBlocks(body, options.chunkChars ?? MARKDOWN_CHUNK_CHARS)) {
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

function parseTree(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/**
 * The body's top-level blocks in order, parsed chunk by chunk when the body is long: each
 * chunk's tree is dropped once its blocks are handed out. A chunk is parsed with the document's
 * link and footnote definitions appended (a reference resolves wherever its definition is), and
 * the blocks those lines make are left out.
 */
function* topLevelBlocks(body: string, chunkChars: number): Generator<RootContent> {
  if (body.length <= chunkChars) {
    yield* parseTree(body).children;
    return;
  }
  const { chunks, definitions } = markdownChunks(body, chunkChars);
  for (const [i, chunk] of chunks.entries()) {
    // The last chunk may end inside an unclosed fence, where appended lines would become code.
    const appended = definitions !== "" && (i < chunks.length - 1 || chunk.endsClean);
    const tree = parseTree(appended ? `${chunk.text}\n\n${definitions}` : chunk.text);
    for (const node of tree.children) {
      if (appended && (node.position?.start.offset ?? 0) >= chunk.text.length) break;
      yield node;
    }
  }
}

const ATX_HEADING = /^#{1,6}(?:[ \t]|$)/;
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** HTML blocks that run past blank lines until their end marker (CommonMark's kinds 1–5). */
const LONG_HTML_BLOCKS: readonly { start: RegExp; end: RegExp }[] = [
  { start: /^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i },
  { start: /^ {0,3}<!--/, end: /-->/ },
  { start: /^ {0,3}<\?/, end: /\?>/ },
  { start: /^ {0,3}<![A-Za-z]/, end: />/ },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/ },
];
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/;
/**
 * Definitions appended to every chunk, at most this much: each chunk pays for parsing them again,
 * so past it (a file of little but definitions) a reference in one chunk to a definition in
 * another keeps its brackets.
 */
const MAX_DEFINITION_CHARS = 64 * 1024;

interface MarkdownChunk {
  text: string;
  /** False when the chunk ends inside a fence or a long HTML block (only ever the last one). */
  endsClean: boolean;
}

/**
 * Cuts a Markdown body into chunks of at least `chunkChars` (but for the last), only where one
 * parse and a parse per chunk see the same top-level blocks: before an ATX heading at the start
 * of a line, or before a line at the start of a line after a blank line that cannot continue
 * what came before (not a list item, which would join the list above it) — and never inside a
 * fenced code block or an HTML block that runs past blank lines. Also returns the first line of
 * every link and footnote definition outside code (at most MAX_DEFINITION_CHARS of them), for each
 * chunk to resolve its references against. One pass, linear in the body.
 */
export function markdownChunks(
  body: string,
  chunkChars: number,
): { chunks: MarkdownChunk[]; definitions: string } {
  const chunks: MarkdownChunk[] = [];
  const definitions: string[] = [];
  let definitionChars = 0;
  let chunkStart = 0;
  let fence: { char: string; length: number } | undefined;
  let html: RegExp | undefined;
  let previousBlank = false;
  for (let lineStart = 0; lineStart < body.length; ) {
    const newline = body.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? body.length : newline;
    const line = body.slice(lineStart, lineEnd);
    const clean = fence === undefined && html === undefined;
    if (
      clean &&
      lineStart - chunkStart >= chunkChars &&
      (ATX_HEADING.test(line) || (previousBlank && /^[^\s]/.test(line) && !LIST_ITEM.test(line)))
    ) {
      chunks.push({ text: body.slice(chunkStart, lineStart), endsClean: true });
      chunkStart = lineStart;
    }
    if (fence) {
      const close = FENCE.exec(line);
      if (
        close &&
        close[1]![0] === fence.char &&
        close[1]!.length >= fence.length &&
        close[2]!.trim() === ""
      ) {
        fence = undefined;
      }
    } else if (html) {
      if (html.test(line)) html = undefined;
    } else {
      const open = FENCE.exec(line);
      if (open && !(open[1]![0] === "`" && open[2]!.includes("`"))) {
        fence = { char: open[1]![0]!, length: open[1]!.length };
      } else {
        const block = LONG_HTML_BLOCKS.find((b) => b.start.test(line));
        // The end marker may close the block on its own first line.
        if (block && !block.end.test(line.replace(block.start, ""))) html = block.end;
        if (DEFINITION.test(line) && definitionChars + line.length < MAX_DEFINITION_CHARS) {
          definitions.push(line);
          definitionChars += line.length + 1;
        }
      }
    }
    previousBlank = line.trim() === "";
    lineStart = lineEnd + 1;
  }
  chunks.push({ text: body.slice(chunkStart), endsClean: fence === undefined && html === undefined });
  // A blank line apart: a definition line must not read as the lazy continuation of the one before.
  return { chunks, definitions: definitions.join("\n\n") };
}

/**
 * A list item indented this far is nested at least MAX_CONTAINER_NESTING deep (each level
 * indents by the width of its parent's marker: two columns at the least, four for "10. ").
 */
const MAX_LIST_INDENT = 4 * MAX_CONTAINER_NESTING;

/**
 * Throws when a line opens more nested lists/quotes than any real document does, on one line
 * ("- - - …") or by indentation (a list item indented past MAX_LIST_INDENT columns).
 */
function assertShallowNesting(body: string): void {
  let lineNumber = 0;
  for (const line of body.split("\n")) {
    lineNumber++;
    const depth = containerMarkers(line);
    if (depth > MAX_CONTAINER_NESTING) {
      throw new SecondLookError(
        "knowledge",
        "markdown-too-deep",
        `lists/quotes nested ${depth} deep on line ${lineNumber} (limit ${MAX_CONTAINER_NESTING})`,
      );
    }
    const indent = indentColumns(line);
    if (indent > MAX_LIST_INDENT && depth > 0) {
      throw new SecondLookError(
        "knowledge",
        "markdown-too-deep",
        `a list item indented ${indent} columns on line ${lineNumber} (limit ${MAX_LIST_INDENT}: lists nested over ${MAX_CONTAINER_NESTING} deep)`,
      );
    }
  }
}

/** Columns of leading blanks (a tab to the next multiple of four). */
function indentColumns(line: string): number {
  let columns = 0;
  for (const c of line) {
    if (c === " ") columns++;
    else if (c === "\t") columns += 4 - (columns % 4);
    else break;
  }
  return columns;
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
