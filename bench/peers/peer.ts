import type { EvalDoc } from "../../src/evaluation/dataset.js";

/**
 * A baseline search system the benchmarks compare our engine against. Every peer indexes the
 * same documents (id, title, text) and answers a query with document ids, best first, using
 * OR semantics over the query's words, so the comparison is about ranking and speed alone.
 */
export interface Peer {
  /** Shown in result tables. */
  readonly label: string;
  /** Indexes `docs`; called once per instance. */
  build(docs: readonly EvalDoc[]): void;
  /** The top `k` document ids for `query`; an empty list when no word of the query is searchable. */
  search(query: string, k: number): string[];
  /** What the peer's index occupies outside the V8 heap, when it can say (bytes). */
  nativeBytes?(): number;
  /** Releases native resources; the instance is unusable afterwards. */
  close(): void;
}
