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

export interface MiniSearchPeerOptions {
  /** Shown in result tables; default "MiniSearch". */
  label?: string;
  /** Splits a field or the query into tokens; default MiniSearch's own tokenizer. */
  tokenize?: (text: string) => string[];
  /** A token as indexed and searched, null to drop it; default English stopwords dropped, Porter stems. */
  processTerm?: (term: string) => string | null;
}

/**
 * MiniSearch 7 as the data README's baseline: fields title and text with MiniSearch's own
 * tokenizer, Porter stems (the `stemmer` package, as our analyzer) and stopword's English list,
 * OR semantics, title boosted 2x. Exact terms only (no prefix or fuzzy expansion), since the
 * other systems match exact stems too. The options set another tokenizer and term processing
 * (the language-aware peers of bench/lohelp.bench.ts).
 */
export class MiniSearchPeer implements Peer {
  readonly label: string;
  private readonly index: MiniSearch<EvalDoc>;

  constructor(options: MiniSearchPeerOptions = {}) {
    this.label = options.label ?? "MiniSearch";
    this.index = new MiniSearch<EvalDoc>({
      fields: ["title", "text"],
      storeFields: [],
      processTerm: options.processTerm ?? processTerm,
      ...(options.tokenize ? { tokenize: options.tokenize } : {}),
      searchOptions: { combineWith: "OR", boost: { title: 2 }, prefix: false, fuzzy: false },
    });
  }

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
