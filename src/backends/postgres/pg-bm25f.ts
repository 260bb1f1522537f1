import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import type { Bm25Params } from "../../knowledge/ranking-core/index.js";

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
    if (!Number.isFinite(v))
      throw new KnowledgeError("bad-bm25-parameter", `BM25 parameter ${v} is not a finite number`);
    return `${v}::float8`;
  };
  return `(${n(p.titleWeight)} * ${columns.titleTf}
            / (1 - ${n(p.bTitle)} + ${n(p.bTitle)} * ${columns.titleLength} / greatest(${averages.title}, 1e-9))
          + ${columns.bodyTf}
            / (1 - ${n(p.bBody)} + ${n(p.bBody)} * ${columns.bodyLength} / greatest(${averages.body}, 1e-9)))`;
}

/** A posting's field frequencies and its section's field lengths. */
export interface PostingFields {
  titleTf: number;
  bodyTf: number;
  titleLength: number;
  bodyLength: number;
}

/**
 * pseudoFrequencySql computed here, operation for operation in the same order on doubles, so
 * both give the same value to the last bit: `averages` are the collection's field length sums
 * divided by max(unit count, 1), as the SQL form computes them.
 */
export function pseudoFrequency(
  f: PostingFields,
  averages: { title: number; body: number },
  p: Readonly<Bm25Params>,
): number {
  return (
    (p.titleWeight * f.titleTf) /
      (1 - p.bTitle + (p.bTitle * f.titleLength) / Math.max(averages.title, 1e-9)) +
    f.bodyTf / (1 - p.bBody + (p.bBody * f.bodyLength) / Math.max(averages.body, 1e-9))
  );
}
