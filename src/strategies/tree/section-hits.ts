// A strategy's selection within one document, as the search hit for that document: the hit
// keeps the document's collection, id, title and relevance (a selection is not a new relevance
// estimate), and takes the selected sections as its chunks, the first one's heading, and the
// first one's pages. One hit per document, so dedupe by `collection/id` still holds.
import type { Hit } from "../../types.js";
import type { StrategyResult } from "../strategy.js";
import { buildView, type DocumentTree } from "./document-tree.js";

/** Sections past this per document are dropped: a selection should be a handful. */
const MAX_SECTIONS = 3;
const SNIPPET_CHARS = 400;

/** The hit rebuilt from the selected sections, or undefined when none of them is in the tree. */
export function sectionHit(documentHit: Hit, tree: DocumentTree, result: StrategyResult): Hit | undefined {
  const byId = new Map(buildView(tree).map((v) => [v.id, v.section]));
  const sections = result.selectedIds
    .map((id) => byId.get(id))
    .filter((s) => s !== undefined)
    .slice(0, MAX_SECTIONS);
  const first = sections[0];
  if (!first) return undefined;
  const {
    snippet,
    chunks: _chunks,
    quote: _quote,
    pages: _pages,
    heading: _heading,
    breadcrumb: _crumb,
    ...base
  } = documentHit;
  const hit: Hit = { ...base, heading: first.title };
  const body = (s: (typeof sections)[number]) => s.content ?? s.summary ?? "";
  if (snippet !== undefined && documentHit.chunks === undefined)
    hit.snippet = body(first).slice(0, SNIPPET_CHARS);
  else hit.chunks = sections.map((s) => ({ heading: s.title, content: body(s) }));
  if (first.pages) hit.pages = { ...first.pages };
  return hit;
}
