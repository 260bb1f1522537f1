import type { Token } from "markdown-it";
import footnote from "markdown-it-footnote";
import { KnowledgeError } from "../knowledge-error.js";
import { splitFrontMatter } from "./front-matter.js";
import { htmlFragmentText } from "./html-loader.js";
import type { ParsedDocument } from "./loaded-document.js";
import { MarkdownIt } from "./markdown-it.js";
import { collapseWhitespace, joinBlocks, tidyLines } from "./plain-text.js";
import { withoutHeadingAttributes } from "./section-anchor.js";
import { buildSections, type SectionBucket } from "./section-tree.js";

export interface MarkdownOptions {
  /** MDX: top-level `import`/`export` statements are code, not prose, and are dropped. */
  mdx?: boolean;
  /** A body longer than this is parsed in chunks of about this size (MARKDOWN_CHUNK_CHARS). */
  chunkChars?: number;
}

/**
 * A longer body is parsed in chunks of about this size, cut only where a block starts afresh: the
 * text extracted is the same as from one parse (see markdownChunks), and the tokens held at once
 * are bounded by the chunk, not the file.
 */
export const MARKDOWN_CHUNK_CHARS = 256 * 1024;

// Nesting costs grow with container depth (a 40 KB line of "- - - …"), and no real document
// nests lists or quotes this deep.
const MAX_CONTAINER_NESTING = 100;
// Deeper nesting (quotes in lists in quotes …) is flattened to its text rather than walked,
// so a hostile file cannot drive the renderer's recursion arbitrarily deep.
const MAX_DEPTH = 32;

/**
 * CommonMark with GFM tables and strikethrough (markdown-it's default rules), raw HTML kept as
 * HTML tokens (their text is extracted), and footnotes. Footnote definitions stay where they are
 * written (the plugin's rule that moves them to the end is off), so their text stays in its section.
 * Every nesting assertShallowNesting lets through is parsed; markdown-it drops what is deeper than
 * `maxNesting` (open tokens: a list and its item are two per level).
 */
const parser = new MarkdownIt("default", {
  html: true,
  linkify: false,
  typographer: false,
  maxNesting: 5 * MAX_CONTAINER_NESTING,
}).use(footnote);
parser.core.ruler.disable("footnote_tail");

/** Distinct link destinations whose normal form is remembered; past it the memory is emptied. */
const LINK_CACHE_LIMIT = 10_000;
const normalizeLink = parser.normalizeLink.bind(parser);
const normalizedLinks = new Map<string, string>();
// markdown-it normalises every link destination (a URL parse, punycode for the host name,
// percent-encoding) to decide whether the link is allowed: a pure function of the destination,
// which documents repeat (their site, their own pages), so each is normalised once per thread.
parser.normalizeLink = (url: string) => {
  let normal = normalizedLinks.get(url);
  if (normal === undefined) {
    normal = normalizeLink(url);
    if (normalizedLinks.size >= LINK_CACHE_LIMIT) normalizedLinks.clear();
    normalizedLinks.set(url, normal);
  }
  return normal;
};

/** A block token with the blocks between it and its closing token (a leaf: none). */
interface Block {
  token: Token;
  children: Block[];
}

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
  for (const block of topLevelBlocks(body, options.chunkChars ?? MARKDOWN_CHUNK_CHARS)) {
    if (block.token.type === "heading_open") {
      // `## Install {#install-rules}` (Pandoc, kramdown, MkDocs, Docusaurus): the id is the published heading's.
      const { heading, anchor } = withoutHeadingAttributes(
        collapseWhitespace(inlinePlain(inlineOf(block), 0)),
      );
      // An empty `#` line is not a heading anyone can navigate to.
      if (heading === "") continue;
      close();
      const level = Number(block.token.tag.slice(1));
      current = { level, heading, content: "", ...(anchor !== undefined ? { anchor } : {}) };
      if (level === 1 && firstH1 === undefined) firstH1 = heading;
      continue;
    }
    if (options.mdx && isEsmStatement(block)) continue;
    blocks.push(renderBlock(block, 0));
  }
  close();

  const title = collapseWhitespace(fields.title ?? "") || firstH1 || fileTitle;
  const doc: ParsedDocument = { title, sections: buildSections(title, buckets) };
  if (fields.url) doc.url = fields.url;
  const modified = isoDate(fields.updated ?? fields.modified ?? fields.last_modified ?? fields.lastmodified);
  if (modified) doc.modifiedTime = modified;
  return doc;
}

/** The token stream as a tree of blocks (inline tokens are leaves holding their own children). */
function parseBlocks(markdown: string): Block[] {
  const root: Block[] = [];
  const open: Block[][] = [root];
  for (const token of parser.parse(markdown, {})) {
    if (token.nesting === -1) {
      if (open.length > 1) open.pop();
      continue;
    }
    const block: Block = { token, children: [] };
    open[open.length - 1]!.push(block);
    if (token.nesting === 1) open.push(block.children);
  }
  return root;
}

/** The first source line of a block or of the first block inside it that knows its line. */
function firstLine(block: Block): number | undefined {
  const stack: Block[] = [block];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.token.map) return next.token.map[0];
    for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]!);
  }
  return undefined;
}

/** Newlines in a text: the last line's index. */
function lastLineIndex(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/**
 * The body's top-level blocks in order, parsed chunk by chunk when the body is long: each
 * chunk's tokens are dropped once its blocks are handed out. A chunk is parsed with the document's
 * link and footnote definitions appended (a reference resolves wherever its definition is), and
 * the blocks those lines make are left out.
 */
function* topLevelBlocks(body: string, chunkChars: number): Generator<Block> {
  if (body.length <= chunkChars) {
    yield* parseBlocks(body);
    return;
  }
  const { chunks, definitions } = markdownChunks(body, chunkChars);
  for (const [i, chunk] of chunks.entries()) {
    // The last chunk may end inside an unclosed fence, where appended lines would become code.
    const appended = definitions !== "" && (i < chunks.length - 1 || chunk.endsClean);
    const blocks = parseBlocks(appended ? `${chunk.text}\n\n${definitions}` : chunk.text);
    // Lines past the chunk's own are the appended definitions.
    const lastOwnLine = lastLineIndex(chunk.text);
    for (const block of blocks) {
      if (appended && (firstLine(block) ?? 0) > lastOwnLine) break;
      yield block;
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
      throw new KnowledgeError(
        "markdown-too-deep",
        `lists/quotes nested ${depth} deep on line ${lineNumber} (limit ${MAX_CONTAINER_NESTING})`,
      );
    }
    const indent = indentColumns(line);
    if (indent > MAX_LIST_INDENT && depth > 0) {
      throw new KnowledgeError(
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

function isEsmStatement(block: Block): boolean {
  return block.token.type === "paragraph_open" && /^(import|export)\s/.test(inlinePlain(inlineOf(block), 0));
}

function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The inline tokens of a paragraph, heading or table cell. */
function inlineOf(block: Block): readonly Token[] {
  const inline = block.children.find((child) => child.token.type === "inline");
  return inline?.token.children ?? [];
}

function renderBlock(block: Block, depth: number): string {
  if (depth > MAX_DEPTH) return flatText(block);
  const { token } = block;
  switch (token.type) {
    case "paragraph_open":
    case "heading_open":
      return renderInline(inlineOf(block), 0);
    case "inline":
      return renderInline(token.children ?? [], 0);
    case "fence":
    case "code_block":
      return tidyLines(token.content);
    case "html_block":
      return isComment(token.content) ? "" : htmlFragmentText(token.content);
    case "bullet_list_open":
    case "ordered_list_open":
      return renderList(block, depth);
    case "table_open":
      return renderTable(block);
    case "footnote_reference_open": {
      const text = joinBlocks(block.children.map((child) => renderBlock(child, depth + 1)));
      const label = (token.meta as { label?: string } | null)?.label ?? "";
      return text === "" ? "" : `[${label}] ${text}`;
    }
    // Rules carry no prose.
    case "hr":
      return "";
    default:
      return token.nesting === 1
        ? joinBlocks(block.children.map((child) => renderBlock(child, depth + 1)))
        : token.content;
  }
}

/** One HTML comment and nothing else (API docs carry one per entry): no text, no HTML parse needed. */
function isComment(html: string): boolean {
  const text = html.trim();
  return text.startsWith("<!--") && text.indexOf("-->", 4) === text.length - 3;
}

/** A GFM task list item's `[ ]` / `[x]` marker at the start of its first paragraph. */
const TASK_MARKER = /^\[[ xX]\](?:[ \t]+|$)/;

/**
 * One item per line with a plain marker (`-` or the item number), nested items indented,
 * so steps and enumerations stay readable and never run together into one sentence.
 */
function renderList(list: Block, depth: number): string {
  const lines: string[] = [];
  const ordered = list.token.type === "ordered_list_open";
  let number = Number(list.token.attrGet("start") ?? 1);
  for (const item of list.children) {
    const marker = ordered ? `${number++}.` : "-";
    const blocks = item.children.map((child, i) => {
      const text = renderBlock(child, depth + 1);
      return i === 0 && child.token.type === "paragraph_open" ? text.replace(TASK_MARKER, "") : text;
    });
    const body = blocks
      .filter((b) => b !== "")
      .join("\n")
      .split("\n");
    lines.push(`${marker} ${body[0] ?? ""}`.trimEnd());
    for (const line of body.slice(1)) lines.push(line === "" ? "" : `  ${line}`);
  }
  return lines.join("\n");
}

/** Header row then one line per row, cells joined by ` | `: readable, without the grid rules. */
function renderTable(table: Block): string {
  const rows: Block[] = [];
  for (const part of table.children) {
    if (part.token.type === "tr_open") rows.push(part);
    else for (const row of part.children) if (row.token.type === "tr_open") rows.push(row);
  }
  return rows
    .map((row) => row.children.map((cell) => renderInline(inlineOf(cell), 0)).join(" | "))
    .filter((line) => line.replace(/[|\s]/g, "") !== "")
    .join("\n");
}

/** Soft line breaks become spaces (they are source wrapping); hard breaks stay as newlines. */
function renderInline(tokens: readonly Token[], depth: number): string {
  let out = "";
  for (const token of tokens) {
    switch (token.type) {
      case "text":
      case "text_special":
      case "code_inline":
        out += token.content.includes("\n") ? token.content.replace(/\s*\n\s*/g, " ") : token.content;
        break;
      case "softbreak":
        out += " ";
        break;
      case "hardbreak":
        out += "\n";
        break;
      case "image":
        out += inlinePlain(token.children ?? [], depth + 1);
        break;
      // Inline tags (<kbd>, <b>, …) are markup around words that are already text; <br> is a line break.
      case "html_inline":
        if (/^<br\s*\/?>$/i.test(token.content)) out += "\n";
        break;
      // Emphasis, links, strikethrough open/close and footnote references carry no words.
      default:
        break;
    }
  }
  // Most paragraphs are one line with single spaces: nothing to split or squeeze.
  if (!SQUEEZABLE.test(out)) return out.trim();
  return out
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .trim();
}

/** What the squeeze in renderInline would change: a line break, a tab, a no-break space or two spaces. */
const SQUEEZABLE = /[\n\t\u00a0]| {2}/;

/** The words of inline tokens on one line (headings, image alt text): no HTML, breaks as spaces. */
function inlinePlain(tokens: readonly Token[], depth: number): string {
  let out = "";
  for (const token of tokens) {
    if (token.type === "text" || token.type === "text_special" || token.type === "code_inline")
      out += token.content;
    else if (token.type === "softbreak" || token.type === "hardbreak") out += " ";
    else if (token.type === "image" && depth < MAX_DEPTH) out += inlinePlain(token.children ?? [], depth + 1);
  }
  return out;
}

/**
 * All the words under a block, space separated, without recursion: the fallback past
 * MAX_DEPTH, where a recursive walk could overflow the stack.
 */
function flatText(root: Block): string {
  const words: string[] = [];
  const stack: Block[] = [root];
  while (stack.length > 0) {
    const { token, children } = stack.pop()!;
    if (token.type === "html_block") continue;
    if (token.type === "inline") words.push(inlinePlain(token.children ?? [], 0));
    else if (token.type === "fence" || token.type === "code_block") words.push(token.content);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return collapseWhitespace(words.join(" "));
}
