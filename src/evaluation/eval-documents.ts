import type { IndexableDocument } from "../knowledge/index/collection-index.js";
import type { EvalDoc } from "./dataset.js";

/** A judged collection's documents as the engine indexes them: one section each, title and text. */
export function toIndexableDocuments(docs: readonly EvalDoc[]): IndexableDocument[] {
  return docs.map((d) => ({
    id: d.id,
    title: d.title || d.id,
    sections: [{ headingPath: [d.title || d.id], content: d.text }],
  }));
}
