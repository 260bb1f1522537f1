// Experiment only (bench/semantic-probe.bench.ts): word vectors in the index's own term space.
// The trimmed files of bench/semantic/trim-embeddings.mjs are read (Int8 with a scale per vector:
// the form a product could ship), and every word is folded onto its index term (the analyzer's
// Porter stem), so "iterating", "iterates" and "iteration"'s stems each get one unit vector: the
// frequency-weighted mean of their words' unit vectors. Each term keeps its most frequent word,
// which a query can carry back to the engine (it analyses to that very term).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzerFor } from "../../src/knowledge/analysis/registry.js";

/** The benchmark's collections are English. */
const english = analyzerFor("en");
const termOf = (word: string) => english.termOf(word);

export const DIMENSIONS = 100;

export interface TermVectors {
  dimensions: number;
  /** term → unit vector (length DIMENSIONS). */
  vector(term: string): Float32Array | undefined;
  /** term → the most frequent word that analyses to it. */
  surface(term: string): string | undefined;
  terms: number;
  loadMs: number;
  /** Bytes held by the vectors themselves. */
  vectorBytes: number;
}

export function loadTermVectors(dir: string, form: "i8" | "f32" = "i8"): TermVectors {
  const started = performance.now();
  const words = readFileSync(join(dir, "words.txt"), "utf8").split("\n").filter(Boolean);
  let row: (i: number, out: Float32Array) => void;
  if (form === "i8") {
    const q = new Int8Array(readFileSync(join(dir, "vectors.i8")).buffer.slice(0));
    const scales = new Float32Array(readFileSync(join(dir, "scales.f32")).buffer.slice(0));
    row = (i, out) => {
      for (let d = 0; d < DIMENSIONS; d++) out[d] = q[i * DIMENSIONS + d]! * scales[i]!;
    };
  } else {
    const f = new Float32Array(readFileSync(join(dir, "vectors.f32")).buffer.slice(0));
    row = (i, out) => out.set(f.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS));
  }
  const sums = new Map<string, Float32Array>();
  const surfaces = new Map<string, string>();
  const v = new Float32Array(DIMENSIONS);
  words.forEach((word, rank) => {
    const term = termOf(word);
    if (term === undefined) return;
    row(rank, v);
    normalize(v);
    // Zipf: rank stands for frequency, so frequent forms dominate their stem's meaning.
    const weight = 1 / (rank + 100);
    let sum = sums.get(term);
    if (!sum) {
      sum = new Float32Array(DIMENSIONS);
      sums.set(term, sum);
      surfaces.set(term, word);
    }
    for (let d = 0; d < DIMENSIONS; d++) sum[d]! += weight * v[d]!;
  });
  for (const sum of sums.values()) normalize(sum);
  return {
    dimensions: DIMENSIONS,
    vector: (term) => sums.get(term),
    surface: (term) => surfaces.get(term),
    terms: sums.size,
    loadMs: performance.now() - started,
    vectorBytes: sums.size * DIMENSIONS * 4,
  };
}

export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let d = 0; d < v.length; d++) n += v[d]! * v[d]!;
  n = Math.sqrt(n);
  if (n > 0) for (let d = 0; d < v.length; d++) v[d]! /= n;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += a[d]! * b[d]!;
  return s;
}
