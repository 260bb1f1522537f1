// Experiment only (bench/semantic-probe.bench.ts): word vectors learnt from the collection itself,
// nothing downloaded — the control for "are general-purpose embeddings simply the wrong domain?".
// Random indexing over sections: every index term gets a fixed sparse random ±1 signature; a
// section's context is the idf-weighted sum of its distinct terms' signatures; a term's vector is
// the sum of the contexts of the sections it occurs in, minus the mean of all term vectors (the
// component every word shares), normalised. Terms that share sections end up close, so a user's
// word the documents use somewhere ("ram", "popup") can lead to the words used beside it.
import type { CollectionIndex } from "../../src/knowledge/index/collection-index.js";
import { normalize, type TermVectors } from "./embeddings.js";

const DIMENSIONS = 256;
const NONZEROS = 8;
/** A term in fewer sections has no reliable context. */
const MIN_DF = 2;

export function corpusTermVectors(index: CollectionIndex): TermVectors {
  const started = performance.now();
  const lexical = index.lexical;
  const signature = (termId: number): [number[], number[]] => {
    // A small deterministic PRNG per term (mulberry32): the same signature on every run.
    let seed = (termId * 2654435761) >>> 0;
    const next = () => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const at: number[] = [];
    const sign: number[] = [];
    for (let k = 0; k < NONZEROS; k++) {
      at.push(Math.floor(next() * DIMENSIONS));
      sign.push(next() < 0.5 ? -1 : 1);
    }
    return [at, sign];
  };
  const signatures = new Map<number, [number[], number[]]>();
  const sums = new Map<number, Float32Array>();
  const context = new Float32Array(DIMENSIONS);
  for (let unit = 0; unit < lexical.unitCount; unit++) {
    const distinct = new Set<number>([...lexical.titleStream(unit), ...lexical.bodyStream(unit)]);
    context.fill(0);
    const kept: number[] = [];
    for (const id of distinct) {
      if (lexical.documentFrequency(id) < MIN_DF) continue;
      kept.push(id);
      let sig = signatures.get(id);
      if (!sig) {
        sig = signature(id);
        signatures.set(id, sig);
      }
      const idf = lexical.idf(id);
      for (let k = 0; k < NONZEROS; k++) context[sig[0][k]!]! += idf * sig[1][k]!;
    }
    for (const id of kept) {
      let sum = sums.get(id);
      if (!sum) {
        sum = new Float32Array(DIMENSIONS);
        sums.set(id, sum);
      }
      for (let d = 0; d < DIMENSIONS; d++) sum[d]! += context[d]!;
    }
  }
  const mean = new Float32Array(DIMENSIONS);
  for (const sum of sums.values()) {
    normalize(sum);
    for (let d = 0; d < DIMENSIONS; d++) mean[d]! += sum[d]! / sums.size;
  }
  const byTerm = new Map<string, Float32Array>();
  for (const [id, sum] of sums) {
    for (let d = 0; d < DIMENSIONS; d++) sum[d]! -= mean[d]!;
    byTerm.set(lexical.term(id), normalize(sum));
  }
  return {
    dimensions: DIMENSIONS,
    vector: (term) => byTerm.get(term),
    // The index keeps stems only: the stem itself stands for its words in a query.
    surface: (term) => (byTerm.has(term) ? term : undefined),
    terms: byTerm.size,
    loadMs: performance.now() - started,
    vectorBytes: byTerm.size * DIMENSIONS * 4,
  };
}
