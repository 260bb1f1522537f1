import { type HTMLElement, type Node, NodeType, parse } from "node-html-parser";
import { KnowledgeError } from "../knowledge-error.js";
import { headingAnchor } from "./heading-anchor.js";
import type { ParsedDocument } from "./loaded-document.js";
import { isManPageHeader, isPermalinkMark, titleWithoutSiteName } from "./page-chrome.js";
import { collapseWhitespace, tidyLines } from "./plain-text.js";
import { buildSections, type SectionBucket } from "./section-tree.js";

// Elements that hold no readable document text (code, chrome, embedded media, metadata).
const DROPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "nav",
  "head",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "canvas",
  "select",
  "button",
]);
// Site chrome when page-level; inside an article or main they are the article's own
// header (often holding its h1) and footer, and are kept.
const CHROME = new Set(["header", "footer"]);
const CONTENT_ROOTS = new Set(["article", "main"]);
const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "details",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "main",
  "ol",
  "p",
  "section",
  "summary",
  "table",
  "tbody",
  "tfoot",
  "thead",
  "ul",
]);
const HEADING = /^h([1-6])$/;
// Deeper markup is read as flat text instead of walked, bounding the recursion.
const MAX_DEPTH = 128;

/**
 * A page that leaves more elements than this open at its end is refused before parsing: the
 * parser's cost grows with the square of the elements left open (15,000: 16 s; 300,000: minutes
 * and 850 MB), while balanced markup, however deep, parses in linear time. No real page leaves a
 * thousand elements unclosed.
 */
export const MAX_UNCLOSED_ELEMENTS = 1_000;
/** Void elements, and elements real pages routinely leave open: they never count as nesting. */
const NOT_NESTING = new Set([
  ...["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"],
  ...["p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "colgroup", "option"],
  ...["optgroup", "rb", "rt", "rp", "rtc", "html", "head", "body"],
]);
/** Bodies that are text, not markup: skipped whole. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "noscript"]);
const TAG_OR_COMMENT = /<!--|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/g;
const rawTextEnd = new Map<string, RegExp>();

/**
 * Throws when more than MAX_UNCLOSED_ELEMENTS elements are left open at the end: one pass over
 * the text counting opening and closing tags (comments and script/style bodies skipped), so it
 * is linear.
 */
export function assertFewUnclosedElements(html: string): void {
  let open = 0;
  const tags = new RegExp(TAG_OR_COMMENT);
  for (let match = tags.exec(html); match !== null; match = tags.exec(html)) {
    const end = html.indexOf(match[0] === "<!--" ? "-->" : ">", tags.lastIndex);
    if (end === -1) break;
    if (match[0] === "<!--") {
      tags.lastIndex = end + 3;
      continue;
    }
    tags.lastIndex = end + 1;
    const name = match[2]!.toLowerCase();
    const closing = match[1] === "/";
    if (!closing && RAW_TEXT.has(name)) {
      const close = rawTextEnd.get(name) ?? new RegExp(`</${name}`, "gi");
      rawTextEnd.set(name, close);
      close.lastIndex = end;
      if (!close.exec(html)) break;
      tags.lastIndex = close.lastIndex;
      continue;
    }
    if (NOT_NESTING.has(name) || html[end - 1] === "/") continue;
    open = closing ? Math.max(0, open - 1) : open + 1;
  }
  if (open > MAX_UNCLOSED_ELEMENTS) {
    throw new KnowledgeError(
      "html-unclosed",
      `${open} elements are never closed (limit ${MAX_UNCLOSED_ELEMENTS})`,
    );
  }
}

/** Script/style bodies are read raw and discarded by the parser, so `<h1>` inside a script string is never markup. */
function parseHtmlTree(source: string): HTMLElement {
  assertFewUnclosedElements(source);
  return parse(source, {
    comment: false,
    blockTextElements: { script: false, style: false, noscript: false },
  });
}

/**
 * HTML to plain-text sections: h1–h6 open sections, scripts/styles/nav/page chrome are
 * dropped, and so are permalink marks; entities decoded, whitespace collapsed (kept inside
 * `<pre>`). Title: `<title>` without the site's name (page-chrome.ts), else the first `<h1>`,
 * else the file name; a manual page's running header is neither. `url` comes from
 * `<link rel="canonical">`.
 * The walk starts at `<main>` when the page has one, since everything outside it is chrome.
 */
export function parseHtml(source: string, fileTitle: string): ParsedDocument {
  const root = parseHtmlTree(source);
  const start = findFirst(root, (tag) => tag === "main") ?? findFirst(root, (tag) => tag === "body") ?? root;
  const walker = new HtmlTextWalker();
  walker.walk(start, 0, start.tagName?.toLowerCase() === "main");
  const buckets = walker.finish();

  const titleElement = findFirst(root, (tag) => tag === "title");
  const h1 = findFirst(root, (tag) => tag === "h1");
  const heading = notManHeader(h1 ? collapseWhitespace(flatText(h1)) : "");
  const pageText = () => buckets.map((b) => `${b.heading ?? ""}\n${b.content}`).join("\n");
  const titleText = notManHeader(collapseWhitespace(titleElement ? flatText(titleElement) : ""));
  const title = titleWithoutSiteName(titleText, heading, pageText) || heading || fileTitle;
  const doc: ParsedDocument = { title, sections: buildSections(title, buckets) };
  const canonical = findFirst(
    root,
    (tag, element) => tag === "link" && element.getAttribute("rel")?.toLowerCase() === "canonical",
  )
    ?.getAttribute("href")
    ?.trim();
  if (canonical) doc.url = canonical;
  return doc;
}

/** A manual page's running header is never a title (page-chrome.ts). */
function notManHeader(text: string): string {
  return isManPageHeader(text) ? "" : text;
}

/** Plain text of an HTML fragment (e.g. a raw HTML block inside markdown). */
export function htmlFragmentText(html: string): string {
  const walker = new HtmlTextWalker();
  walker.walk(parseHtmlTree(html), 0, true);
  return walker
    .finish()
    .map((b) => [b.heading ?? "", b.content].filter((s) => s !== "").join("\n\n"))
    .filter((s) => s !== "")
    .join("\n\n");
}

type BlockKind = "paragraph" | "item" | "row";

/**
 * Document-order walk that cuts the text into buckets at headings and into blocks at block
 * elements. Consecutive list items or table rows are joined by single newlines, everything
 * else by a blank line.
 */
class HtmlTextWalker {
  private readonly buckets: SectionBucket[] = [];
  private current: SectionBucket = { level: 0, content: "" };
  private blocks: { kind: BlockKind; text: string; group: number }[] = [];
  /** Bumped at each top-level list or table boundary, so two adjacent lists stay apart. */
  private group = 0;
  private line = "";
  private pendingKind: BlockKind = "paragraph";
  private pendingPrefix = "";
  private listDepth = 0;

  walk(node: Node, depth: number, inContent: boolean): void {
    for (const child of node.childNodes) {
      if (child.nodeType === NodeType.TEXT_NODE) {
        // Source whitespace is layout; only <br> (added as "\n" below) is a real line break.
        this.line += child.text.replace(/[\s\u00a0]+/g, " ");
        continue;
      }
      if (child.nodeType !== NodeType.ELEMENT_NODE) continue;
      const element = child as HTMLElement;
      const tag = element.tagName.toLowerCase();
      if (isDropped(tag, element)) continue;
      if (CHROME.has(tag) && !inContent) continue;
      if (depth >= MAX_DEPTH) {
        this.line += ` ${flatText(element)} `;
        continue;
      }
      this.element(element, tag, depth, inContent || CONTENT_ROOTS.has(tag));
    }
  }

  private element(element: HTMLElement, tag: string, depth: number, inContent: boolean): void {
    const heading = HEADING.exec(tag);
    if (heading) {
      const text = collapseWhitespace(flatText(element));
      if (text === "") return;
      this.flush();
      this.closeBucket();
      const anchor = headingAnchor(element);
      this.current = { level: Number(heading[1]), heading: text, content: "", ...(anchor ? { anchor } : {}) };
      return;
    }
    switch (tag) {
      case "br":
        this.line += "\n";
        return;
      case "pre":
        this.flush();
        this.blocks.push({ kind: "paragraph", text: tidyLines(flatText(element)), group: this.group });
        return;
      case "li":
        this.flush();
        this.pendingKind = "item";
        this.pendingPrefix = "  ".repeat(Math.max(0, this.listDepth - 1)) + itemMarker(element);
        this.walk(element, depth + 1, inContent);
        this.flush();
        return;
      case "tr": {
        this.flush();
        const cells = element.childNodes
          .filter((c): c is HTMLElement => c.nodeType === NodeType.ELEMENT_NODE)
          .filter((c) => /^t[dh]$/i.test(c.tagName))
          .map((c) => collapseWhitespace(flatText(c)));
        if (cells.some((c) => c !== ""))
          this.blocks.push({ kind: "row", text: cells.join(" | "), group: this.group });
        return;
      }
      case "img": {
        const alt = element.getAttribute("alt")?.trim();
        if (alt) this.line += ` ${alt} `;
        return;
      }
    }
    if (BLOCKS.has(tag)) {
      const isList = tag === "ul" || tag === "ol";
      const topLevel = (isList && this.listDepth === 0) || tag === "table";
      this.flush();
      if (topLevel) this.group++;
      if (isList) this.listDepth++;
      this.walk(element, depth + 1, inContent);
      if (isList) this.listDepth--;
      this.flush();
      if (topLevel) this.group++;
      return;
    }
    this.walk(element, depth + 1, inContent);
  }

  finish(): SectionBucket[] {
    this.flush();
    this.closeBucket();
    return this.buckets;
  }

  private flush(): void {
    const text = this.line
      .split("\n")
      .map((l) => collapseWhitespace(l))
      .filter((l) => l !== "")
      .join("\n");
    this.line = "";
    if (text !== "") {
      this.blocks.push({ kind: this.pendingKind, text: this.pendingPrefix + text, group: this.group });
    }
    this.pendingKind = "paragraph";
    this.pendingPrefix = "";
  }

  private closeBucket(): void {
    let content = "";
    let previous: { kind: BlockKind; group: number } | undefined;
    for (const block of this.blocks) {
      const sameRun =
        previous?.kind === block.kind && previous.group === block.group && block.kind !== "paragraph";
      if (content !== "") content += sameRun ? "\n" : "\n\n";
      content += block.text;
      previous = block;
    }
    this.buckets.push({ ...this.current, content });
    this.blocks = [];
  }
}

function itemMarker(li: HTMLElement): string {
  const list = li.parentNode;
  if (list?.tagName?.toLowerCase() !== "ol") return "- ";
  const items = list.childNodes.filter(
    (c) => c.nodeType === NodeType.ELEMENT_NODE && (c as HTMLElement).tagName.toLowerCase() === "li",
  );
  const start = Number.parseInt(list.getAttribute("start") ?? "1", 10);
  return `${(Number.isFinite(start) ? start : 1) + items.indexOf(li)}. `;
}

/**
 * Text of an element with block boundaries as spaces and dropped elements skipped. It is
 * iterative so that absurdly deep markup cannot overflow the stack.
 */
function flatText(root: Node): string {
  let out = "";
  const stack: (Node | string)[] = [root];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next === "string") {
      out += next;
      continue;
    }
    if (next.nodeType === NodeType.TEXT_NODE) {
      out += next.text;
      continue;
    }
    if (next.nodeType !== NodeType.ELEMENT_NODE) continue;
    const tag = (next as HTMLElement).tagName?.toLowerCase() ?? "";
    if (isDropped(tag, next as HTMLElement)) continue;
    const spaced = BLOCKS.has(tag) || tag === "br" || tag === "li" || tag === "td" || tag === "th";
    if (spaced) stack.push(" ");
    for (let i = next.childNodes.length - 1; i >= 0; i--) stack.push(next.childNodes[i]!);
    if (spaced) stack.push(" ");
  }
  return out;
}

/** Elements whose text is never the document's: chrome, code, media, and permalink marks. */
function isDropped(tag: string, element: HTMLElement): boolean {
  if (DROPPED.has(tag)) return true;
  if (tag !== "a") return false;
  // Only a same-page link can be a mark: its text is read for those alone.
  const href = element.getAttribute("href");
  return href?.startsWith("#") === true && isPermalinkMark(href, element.text);
}

/** First element in document order matching the predicate (iterative, see flatText). */
function findFirst(
  root: HTMLElement,
  matches: (tag: string, element: HTMLElement) => boolean,
): HTMLElement | undefined {
  const stack: Node[] = [...root.childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType !== NodeType.ELEMENT_NODE) continue;
    const element = node as HTMLElement;
    if (matches(element.tagName?.toLowerCase() ?? "", element)) return element;
    for (let i = element.childNodes.length - 1; i >= 0; i--) stack.push(element.childNodes[i]!);
  }
  return undefined;
}
