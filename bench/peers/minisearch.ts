import MiniSearch from "minisearch";
import { stemmer } from "stemmer";
import type { EvalDoc } from "../../src/evaluation/dataset.js";
import type { Peer } from "./peer.js";
import { ENGLISH_STOPWORDS } from "./stopwords.js";

/** Lower case, drop English stopwords, Porter stem: applied to indexed and query terms alike. */
function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return ENGLISH_STOPWORDS.has(word) ? null : stemmer(word);
}

/**
 * MiniSearch 7 as the data README's baseline: fields title and text with MiniSearch's own
 * tokenizer, Porter stems (the `stemmer` package, as our analyzer) and stopword's English list,
 * OR semantics, title boosted 2x. Exact terms only (no prefix or fuzzy expansion), since the
 * other systems match exact stems too.
 */
export class MiniSearchPeer implements Peer {
  readonly label = "MiniSearch";
  private readonly index = new MiniSearch<EvalDoc>({
    fields: ["title", "text"],
    storeFields: [],
    processTerm,
    searchOptions: { combineWith: "OR", boost: { title: 2 }, prefix: false, fuzzy: false },
  });

  build(docs: readonly EvalDoc[]): void {
    this.index.addAll(docs);
  }

  search(query: string, k: number): string[] {
    // MiniSearch scores and sorts every match; it has no top-k cut of its own.
    return this.index
      .search(query)
      .slice(0, k)
      .map((r) => String(r.id));
  }

  close(): void {
    this.index.removeAll();
  }
}
