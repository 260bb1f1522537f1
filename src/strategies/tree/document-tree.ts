// The section tree the strategies navigate (docs/reference/vectorless-strategies.md §1), and its depth-first view. Built
// from a Doc's flattened sections (heading depth → nesting) or written directly in tests.
import type { Doc } from "../../types.js";
import { estimateTokens } from "./token-estimate.js";

export interface SummaryAxes {
  topics?: string[];
  entities?: string[];
  numbers?: string[];
  oneLine?: string;
}

export interface PageRange {
  start: number;
  end: number;
}

export interface TreeSection {
  /** Stable within one version of the document. The empty id marks a synthetic root. */
  id: string;
  title: string;
  summary?: string;
  axes?: SummaryAxes;
  candidateQuestions?: string[];
  /** The section's own body (absent for a heading that only groups children). */
  content?: string;
  /** Approximate tokens of the body. */
  tokens: number;
  /** Inclusive, 1-based; internal nodes carry the union of their children's. */
  pages?: PageRange;
  children: TreeSection[];
}

export interface DocumentTree {
  documentId: string;
  title: string;
  root: TreeSection | null;
}

/** One line of the prompt projection (docs/reference/vectorless-strategies.md §1.3). */
export interface SectionView {
  id: string;
  parentId?: string;
  depth: number;
  section: TreeSection;
}

/** Depth-first pre-order view of the tree (root depth 0). */
export function buildView(tree: DocumentTree): SectionView[] {
  const out: SectionView[] = [];
  if (!tree.root) return out;
  // Iterative: a hostile document must not overflow the stack through nesting.
  const stack: { section: TreeSection; depth: number; parentId?: string }[] = [
    { section: tree.root, depth: 0 },
  ];
  while (stack.length > 0) {
    const { section, depth, parentId } = stack.pop()!;
    out.push({ id: section.id, depth, section, ...(parentId !== undefined ? { parentId } : {}) });
    for (let i = section.children.length - 1; i >= 0; i--) {
      stack.push({ section: section.children[i]!, depth: depth + 1, parentId: section.id });
    }
  }
  return out;
}

/** Sum of the leaves' tokens (auto routing's size measure). */
export function leafTokens(tree: DocumentTree): number {
  return buildView(tree).reduce(
    (sum, v) => sum + (v.section.children.length === 0 ? v.section.tokens : 0),
    0,
  );
}

export function hasPages(tree: DocumentTree): boolean {
  return buildView(tree).some((v) => v.section.pages !== undefined);
}

/**
 * The tree of a Doc: each section hangs under the nearest earlier section with a smaller
 * level. Ids are `sec_<n>` in reading order, so they are stable for one version of the file
 * and a model cannot be steered by document text into naming an id. Several top-level
 * sections get a synthetic root (id "") titled with the document title. Internal nodes take
 * the union of their descendants' pages (docs/reference/vectorless-strategies.md §2.4.3).
 */
export function treeFromDoc(doc: Pick<Doc, "id" | "title" | "sections" | "text">): DocumentTree {
  const sections = doc.sections ?? [];
  const top: TreeSection[] = [];
  const open: { level: number; node: TreeSection }[] = [];
  sections.forEach((s, i) => {
    const content = s.content.trim();
    const node: TreeSection = {
      id: `sec_${i + 1}`,
      title: s.heading ?? s.headingPath[s.headingPath.length - 1] ?? doc.title,
      tokens: estimateTokens(content),
      children: [],
    };
    if (content) node.content = content;
    if (s.pages) node.pages = { ...s.pages };
    while (open.length > 0 && open[open.length - 1]!.level >= s.level) open.pop();
    const parent = open[open.length - 1];
    if (parent) parent.node.children.push(node);
    else top.push(node);
    open.push({ level: s.level, node });
  });
  if (top.length === 0 && doc.text.trim() !== "") {
    top.push({
      id: "sec_1",
      title: doc.title,
      content: doc.text.trim(),
      tokens: estimateTokens(doc.text),
      children: [],
    });
  }
  let root: TreeSection | null = null;
  if (top.length === 1) root = top[0]!;
  else if (top.length > 1) root = { id: "", title: doc.title, tokens: 0, children: top };
  if (root) propagatePages(root);
  return { documentId: doc.id, title: doc.title, root };
}

/** Widens each internal node's range to cover its children (never narrows, never invents). */
function propagatePages(root: TreeSection): void {
  const order: TreeSection[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    stack.push(...node.children);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    for (const child of node.children) {
      if (!child.pages) continue;
      node.pages = node.pages
        ? {
            start: Math.min(node.pages.start, child.pages.start),
            end: Math.max(node.pages.end, child.pages.end),
          }
        : { ...child.pages };
    }
  }
}
