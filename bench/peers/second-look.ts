import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import type { EvalDoc } from "../../src/evaluation/dataset.js";
import { toIndexableDocuments } from "../../src/evaluation/eval-documents.js";
import type { Peer } from "./peer.js";

const COLLECTION = "bench";

/**
 * Our engine behind the peers' interface, so the benchmarks drive every system the same way.
 * `search` goes through the public `searchSync` — hits with chunks, calibrated relevance,
 * retry hints on weak results — the cost a caller pays. `rerank` chooses between the default
 * search (full mode, reranked) and the first pass alone (rerank: false).
 */
export class SecondLookPeer implements Peer {
  readonly label: string;

  constructor(
    private readonly options: { rerank: boolean },
    /** Shared by the peers `withMode` makes, so one build serves both modes. */
    private readonly built: { engine?: KnowledgeEngine } = {},
  ) {
    this.label = options.rerank ? "second-look (default, reranked)" : "second-look (first pass)";
  }

  /** Analysis and index build from the documents in memory, conversion to the engine's input included. */
  build(docs: readonly EvalDoc[]): void {
    this.built.engine = KnowledgeEngine.fromDocuments({ [COLLECTION]: toIndexableDocuments(docs) });
  }

  /** A peer searching this one's index (built or still to be built) in the other mode. */
  withMode(rerank: boolean): SecondLookPeer {
    return new SecondLookPeer({ rerank }, this.built);
  }

  search(query: string, k: number): string[] {
    const engine = this.built.engine;
    if (!engine) throw new Error("SecondLookPeer: search before build");
    // The default search leaves `rerank` unset, exactly as a caller of the default would.
    const request = this.options.rerank ? { query, limit: k } : { query, limit: k, rerank: false };
    return engine.searchSync(request).results.map((h) => h.id);
  }

  close(): void {
    delete this.built.engine;
  }
}
