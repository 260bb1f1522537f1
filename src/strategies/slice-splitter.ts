// Splits a document outline into slices that each fit the token budget (reference §5.2):
// whole subtrees are packed greedily; a subtree larger than the budget is split recursively
// with a breadcrumb naming where it sits; every slice from one level shows its level's
// children as non-selectable "peripheral siblings" for orientation.
//
// Decided differently from the reference: slices are numbered once, over the final list
// (`(slice i of N)`), instead of per level (which gives nested splits two suffixes); and the
// prompts keep the HyDE `answers:` and axes lines, as single-pass does.
import { buildView, type DocumentTree, type SectionView, type TreeSection } from "./document-tree.js";
import { outlineLines } from "./outline-lines.js";
import type { TokenCounter } from "./token-estimate.js";

export interface Slice {
  breadcrumb: string;
  /** The selectable sections of this slice. */
  views: SectionView[];
  /** Shallow lines of the level's children (context only). */
  peripheral: string[];
}

/** Bound on slices per document: a pathological tree must not become thousands of calls. */
export const MAX_SLICES = 256;

export function splitIntoSlices(tree: DocumentTree, available: number, count: TokenCounter): Slice[] {
  const all = buildView(tree).filter((v) => v.id !== "");
  const crumb = `Document: ${tree.title}`;
  if (!tree.root) return [];
  const render = (views: readonly SectionView[]) => views.flatMap((v) => outlineLines(v)).join("\n");
  if (available <= 0 || count(render(all)) <= available)
    return [{ breadcrumb: crumb, views: all, peripheral: [] }];

  const byId = new Map(all.map((v) => [v.section, v]));
  const viewsOf = (section: TreeSection): SectionView[] => {
    const out: SectionView[] = [];
    const stack = [section];
    while (stack.length > 0) {
      const s = stack.pop()!;
      const v = byId.get(s);
      if (v) out.push(v);
      for (let i = s.children.length - 1; i >= 0; i--) stack.push(s.children[i]!);
    }
    return out;
  };

  const slices: Slice[] = [];
  // Explicit work stack (node, breadcrumb) instead of recursion: depth is document-controlled.
  const work: { node: TreeSection; crumb: string }[] = [{ node: tree.root, crumb }];
  while (work.length > 0 && slices.length < MAX_SLICES) {
    const { node, crumb: here } = work.shift()!;
    const peripheral = node.children.map((c) => byId.get(c)).filter((v): v is SectionView => !!v);
    const peripheralLines = peripheral.map((v) => shallowLine(v));
    const own = byId.get(node);
    let current: SectionView[] = own ? [own] : [];
    let currentSize = own ? count(render([own])) : 0;
    const levelSlices: Slice[] = [];
    const flush = () => {
      if (current.length > 0)
        levelSlices.push({ breadcrumb: here, views: current, peripheral: peripheralLines });
      current = [];
      currentSize = 0;
    };
    const deeper: { node: TreeSection; crumb: string }[] = [];
    for (const child of node.children) {
      const sub = viewsOf(child);
      const size = count(render(sub));
      if (size > available && child.children.length > 0) {
        flush();
        deeper.push({ node: child, crumb: node.id === "" ? here : `${here} → ${node.title}` });
      } else if (currentSize + size > available && current.length > 0) {
        flush();
        current = sub;
        currentSize = size;
      } else {
        current.push(...sub);
        currentSize += size;
      }
    }
    flush();
    slices.push(...levelSlices);
    work.unshift(...deeper);
  }
  const total = Math.min(slices.length, MAX_SLICES);
  return slices
    .slice(0, total)
    .map((s, i) => (total > 1 ? { ...s, breadcrumb: `${s.breadcrumb} (slice ${i + 1} of ${total})` } : s));
}

function shallowLine(view: SectionView): string {
  const summary = view.section.summary ? ` — ${view.section.summary.replace(/\s+/g, " ").trim()}` : "";
  return `- [${view.id}] ${view.section.title.replace(/\s+/g, " ").trim()}${summary}`;
}
