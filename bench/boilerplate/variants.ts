// Rules for removing a site's frame (navigation, banners, sidebars, footers) from an HTML page,
// as transforms of the page's markup ahead of the product's own HTML loader
// (src/knowledge/documents/html-loader.ts), so each rule is measured through the loader as it
// ships. `current` is the loader alone (it drops <nav>, and <header>/<footer> outside
// <article>/<main>, and starts at <main> when there is one); `none` undoes that rule, so the
// whole body is read; the others remove more, each by a general rule (landmarks, link density),
// never by a site's class names.
import { type HTMLElement, type Node, NodeType, parse } from "node-html-parser";

export interface BoilerplateVariant {
  name: string;
  /** The rule in one line, for the report. */
  rule: string;
  /** The page's markup with the rule applied; absent: the page as it is (the loader's own rule). */
  transform?: (html: string) => string;
}

/** Where a page's own text lives; outside them is the frame. */
const CONTENT = new Set(["main", "article"]);
const FRAME_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search"]);
/** A block whose text is links for at least this share (and holds LINKS_AT_LEAST links) is navigation. */
const LINK_SHARE = 0.6;
const LINKS_AT_LEAST = 3;
const BLOCKS = new Set([
  "div",
  "ul",
  "ol",
  "dl",
  "table",
  "section",
  "p",
  "aside",
  "header",
  "footer",
  "form",
]);

const elements = (node: Node): HTMLElement[] =>
  node.childNodes.filter((c): c is HTMLElement => c.nodeType === NodeType.ELEMENT_NODE);

/** Markup in, markup out: scripts and styles kept as text (the loader drops them itself). */
function rewrite(html: string, edit: (root: HTMLElement) => void): string {
  const root = parse(html, {
    comment: false,
    blockTextElements: { script: true, style: true, noscript: true, pre: true, textarea: true },
  });
  edit(root);
  return root.toString();
}

/** Every element of the page outside its content (main, article, role=main), top-down. */
function visitFrame(node: HTMLElement, visit: (element: HTMLElement) => "remove" | "descend"): void {
  for (const child of elements(node)) {
    const tag = child.tagName.toLowerCase();
    if (CONTENT.has(tag) || child.getAttribute("role") === "main") continue;
    if (visit(child) === "remove") node.removeChild(child);
    else visitFrame(child, visit);
  }
}

function rename(root: HTMLElement, tags: ReadonlySet<string>, to: string): void {
  const stack = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    for (const child of elements(element)) {
      if (tags.has(child.tagName.toLowerCase())) child.tagName = to;
      stack.push(child);
    }
  }
}

/** The first element with role=main, when the page has no <main>: it becomes the <main> the loader starts at. */
function roleMainAsMain(root: HTMLElement): void {
  if (root.querySelector("main")) return;
  const marked = root.querySelector('[role="main"]');
  if (marked) marked.tagName = "main";
}

function linkShare(element: HTMLElement): { share: number; links: number } {
  const text = element.textContent.replace(/\s+/g, "");
  const anchors = element.querySelectorAll("a");
  const linked = anchors.reduce((n, a) => n + a.textContent.replace(/\s+/g, "").length, 0);
  return { share: text.length ? linked / text.length : 0, links: anchors.length };
}

const dropLandmarks = (root: HTMLElement) => {
  roleMainAsMain(root);
  visitFrame(root, (element) =>
    element.tagName.toLowerCase() === "aside" || FRAME_ROLES.has(element.getAttribute("role") ?? "")
      ? "remove"
      : "descend",
  );
};

const dropLinkDense = (root: HTMLElement) =>
  visitFrame(root, (element) => {
    if (!BLOCKS.has(element.tagName.toLowerCase())) return "descend";
    const { share, links } = linkShare(element);
    return share >= LINK_SHARE && links >= LINKS_AT_LEAST ? "remove" : "descend";
  });

export const VARIANTS: readonly BoilerplateVariant[] = [
  {
    name: "none",
    rule: "nothing removed: <nav>, <header>, <footer> read as text and the whole <body> read (<main> not preferred)",
    transform: (html) =>
      rewrite(html, (root) => rename(root, new Set(["nav", "header", "footer", "main"]), "div")),
  },
  {
    name: "current",
    rule: "the loader as it ships: <nav> dropped, <header>/<footer> outside <article>/<main> dropped, <main> preferred",
  },
  {
    name: "landmarks",
    rule: `current, plus ARIA landmarks: role=main read as <main>; outside the content, <aside> and role=${[...FRAME_ROLES].join("|")} dropped`,
    transform: (html) => rewrite(html, dropLandmarks),
  },
  {
    name: "link-dense",
    rule: `current, plus outside the content every block whose text is ≥ ${LINK_SHARE * 100} % link text with ≥ ${LINKS_AT_LEAST} links dropped`,
    transform: (html) => rewrite(html, dropLinkDense),
  },
];

/** The page through a parse and serialisation that changes nothing: what every transform costs the text by itself. */
export const roundTrip = (html: string): string => rewrite(html, () => undefined);
