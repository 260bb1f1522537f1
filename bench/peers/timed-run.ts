import type { EvalDoc, EvalQuery } from "../../src/evaluation/dataset.js";
import { percentiles } from "../../src/evaluation/percentiles.js";
import type { Peer } from "./peer.js";

export interface QueryTimings {
  /** queryId -> ranking from the last timed pass. */
  runs: Map<string, string[]>;
  /** Every timed query, in milliseconds (passes × queries samples). */
  samples: number[];
  p50: number;
  p95: number;
  p99: number;
}

/** Wall-clock milliseconds to build `peer` over `docs`. */
export function timeBuild(peer: Peer, docs: readonly EvalDoc[]): number {
  const started = performance.now();
  peer.build(docs);
  return performance.now() - started;
}

/**
 * Times every peer on every query, `passes` times, after an untimed warm-up over the first
 * `warmup` queries (so the JIT has compiled each peer's query path, as in a long-running bot).
 * Each query is timed on its own, from the query text to the list of ids, so query parsing and
 * result shaping count.
 *
 * The peers take turns query by query rather than one after the other: on a shared machine the
 * load drifts over minutes, and interleaving gives every system the same share of that drift.
 */
export function timeQueries(
  peers: readonly Peer[],
  queries: readonly EvalQuery[],
  options: { k: number; passes: number; warmup: number },
): QueryTimings[] {
  for (const q of queries.slice(0, options.warmup)) for (const peer of peers) peer.search(q.text, options.k);
  const runs = peers.map(() => new Map<string, string[]>());
  const samples = peers.map((): number[] => []);
  for (let pass = 0; pass < options.passes; pass++) {
    for (const q of queries) {
      peers.forEach((peer, i) => {
        const started = performance.now();
        const ids = peer.search(q.text, options.k);
        samples[i]!.push(performance.now() - started);
        runs[i]!.set(q.id, ids);
      });
    }
  }
  return peers.map((_, i) => {
    const [p50, p95, p99] = percentiles(samples[i]!, [50, 95, 99]);
    return { runs: runs[i]!, samples: samples[i]!, p50: p50!, p95: p95!, p99: p99! };
  });
}
