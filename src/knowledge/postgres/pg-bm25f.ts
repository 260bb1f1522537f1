import type { Bm25Params } from "../index/bm25.js";

/**
 * The BM25F pseudo-frequency as SQL (the formula of src/knowledge/index/lexical-index.ts), over
 * the given column expressions. The parameters are our own constants, written as literals only
 * once checked to be finite numbers: no outside text reaches the statement this way.
 */
export function pseudoFrequencySql(
  columns: { titleTf: string; bodyTf: string; titleLength: string; bodyLength: string },
  averages: { title: string; body: string },
  p: Readonly<Bm25Params>,
): string {
  const n = (v: number) => {
    if (!Number.isFinite(v)) throw new Error(`BM25 parameter ${v} is not a finite number`);
    return `${v}::float8`;
  };
  return `(${n(p.titleWeight)} * ${columns.titleTf}
            / (1 - ${n(p.bTitle)} + ${n(p.bTitle)} * ${columns.titleLength} / greatest(${averages.title}, 1e-9))
          + ${columns.bodyTf}
            / (1 - ${n(p.bBody)} + ${n(p.bBody)} * ${columns.bodyLength} / greatest(${averages.body}, 1e-9)))`;
}
