import path from "node:path";
import { EvaluationDataError } from "./data-error.js";
import { assembleDataset, type EvalDataset, type EvalDoc, type EvalQuery } from "./dataset.js";
import { readJudgmentLines } from "./judgment-lines.js";
import { canonicalSmartId, collapseWhitespace, readSmartRecords } from "./smart.js";

export const CRANFIELD_FILES = { docs: "cran.all.1400", queries: "cran.qry", qrels: "cranqrel" } as const;

/**
 * Reads the Cranfield collection in its original SMART layout from `dir`.
 *
 * - Documents: `.I` id, `.T` title, `.W` text (what gets indexed); `.A` and `.B` (authors,
 *   source) are bibliographic and ignored. Line breaks are layout, so whitespace is collapsed.
 * - Queries: cran.qry's `.I` numbers are not sequential; the judgments number the queries
 *   1..N in file order, and so does this loader (query ids are "1".."225").
 * - Judgments: lines `query doc grade`. Cranfield's scale is 1 (complete answer) to 4
 *   (minimum interest), all relevant, mapped to gain = 5 - grade so that higher is better
 *   (the BEIR conversion). Every other value is not relevant: -1 (the file's "no relevant
 *   document" placeholder) and 5 (the original scale's "of no interest", present in some
 *   copies of the file), 0, or a non-integer. Such lines are counted in
 *   `stats.nonRelevantJudgments`. A later line for the same pair replaces an earlier one.
 * - Queries without a relevant judgment are dropped ("judged queries only").
 */
export async function readCranfield(dir: string, options: { name?: string } = {}): Promise<EvalDataset> {
  const docs = await readDocs(path.join(dir, CRANFIELD_FILES.docs));
  const queries = await readQueries(path.join(dir, CRANFIELD_FILES.queries));
  const judged = await readJudgments(path.join(dir, CRANFIELD_FILES.qrels));
  return assembleDataset({ dir, name: options.name, docs, queries, judged });
}

/** Cranfield's 1..4 relevance grade as a linear gain; 0 for anything off the relevant scale. */
export function cranfieldGain(grade: number): number {
  return Number.isInteger(grade) && grade >= 1 && grade <= 4 ? 5 - grade : 0;
}

async function readDocs(file: string): Promise<EvalDoc[]> {
  const docs: EvalDoc[] = [];
  const seen = new Set<string>();
  for await (const record of readSmartRecords(file)) {
    const id = canonicalSmartId(record.id);
    if (seen.has(id)) throw new EvaluationDataError(`${file}:${record.line}: duplicate document id ${id}`);
    seen.add(id);
    docs.push({
      id,
      title: collapseWhitespace(record.fields.get("T") ?? ""),
      text: collapseWhitespace(record.fields.get("W") ?? ""),
    });
  }
  return docs;
}

async function readQueries(file: string): Promise<EvalQuery[]> {
  const queries: EvalQuery[] = [];
  for await (const record of readSmartRecords(file)) {
    queries.push({ id: String(queries.length + 1), text: collapseWhitespace(record.fields.get("W") ?? "") });
  }
  return queries;
}

function readJudgments(file: string) {
  return readJudgmentLines(file, "query doc grade", ([queryField, docField, gradeField], where) => {
    if (!/^\d+$/.test(queryField)) {
      throw new EvaluationDataError(
        `${where}: query number ${JSON.stringify(queryField)} is not a positive integer`,
      );
    }
    const grade = Number(gradeField);
    if (gradeField === "" || !Number.isFinite(grade)) {
      throw new EvaluationDataError(`${where}: grade ${JSON.stringify(gradeField)} is not a number`);
    }
    return {
      queryId: canonicalSmartId(queryField),
      docId: canonicalSmartId(docField),
      gain: cranfieldGain(grade),
    };
  });
}
