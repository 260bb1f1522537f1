// The test trees of docs/reference/vectorless-strategies.md §12: T3, AgTree and PagedTree.
import type { DocumentTree, TreeSection } from "../../src/strategies/tree/document-tree.js";

const leaf = (id: string, title: string, extra: Partial<TreeSection> = {}): TreeSection => ({
  id,
  title,
  tokens: 10,
  children: [],
  ...extra,
});

/** doc_x "Atlas": sec_root → sec_a Setup, sec_b Usage, sec_c FAQ. */
export function t3(): DocumentTree {
  return {
    documentId: "doc_x",
    title: "Atlas",
    root: {
      id: "sec_root",
      title: "Atlas",
      tokens: 0,
      children: [
        leaf("sec_a", "Setup", { summary: "install steps", content: "Install steps: run vle ingest." }),
        leaf("sec_b", "Usage", { summary: "how to query", content: "Query with vle query." }),
        leaf("sec_c", "FAQ", { summary: "common questions", content: "Questions people ask." }),
      ],
    },
  };
}

/** sec_root → sec_a Setup → {sec_a1 Install, sec_a2 Config}, sec_b Usage → {sec_b1 Querying}; with pages: + sec_b2 Debt. */
export function agTree(withPages = false): DocumentTree {
  const p = (start: number, end: number) => (withPages ? { pages: { start, end } } : {});
  const b = [
    leaf("sec_b1", "Querying", {
      summary: "how to query",
      content: "Querying: use vle query with a question.",
      ...p(5, 7),
    }),
  ];
  if (withPages)
    b.push(
      leaf("sec_b2", "Debt", { summary: "debt figures", content: "Total debt was 42 million.", ...p(8, 9) }),
    );
  return {
    documentId: "doc_ag",
    title: "Atlas Guide",
    root: {
      id: "sec_root",
      title: "Atlas Guide",
      tokens: 0,
      ...p(1, 9),
      children: [
        {
          id: "sec_a",
          title: "Setup",
          summary: "setting things up",
          tokens: 0,
          ...p(1, 4),
          children: [
            leaf("sec_a1", "Install", {
              summary: "install steps",
              content: "Install steps: run vle ingest.",
              ...p(1, 2),
            }),
            leaf("sec_a2", "Config", {
              summary: "configuration",
              content: "Config lives in vle.yaml.",
              ...p(3, 4),
            }),
          ],
        },
        { id: "sec_b", title: "Usage", summary: "using it", tokens: 0, ...p(5, 9), children: b },
      ],
    },
  };
}

export const pagedTree = (): DocumentTree => agTree(true);

export const empty = (): DocumentTree => ({ documentId: "doc_empty", title: "Empty", root: null });
