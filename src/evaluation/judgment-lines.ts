import { EvaluationDataError } from "./data-error.js";
import type { JudgmentsRead, RelevantJudgment } from "./dataset.js";
import { readLines } from "./line-reader.js";

/** A judgment line's three fields: query, document, grade. */
export type JudgmentFields = readonly [query: string, doc: string, grade: string];

/**
 * Reads a judgments file of `query doc grade` lines, tab-separated (BEIR) or with runs of spaces
 * (SMART, files made by hand; ids with spaces inside need the tab form). Blank lines are skipped;
 * a line without three fields fails naming the file, the line and the `layout` expected; `judge`
 * turns a line's fields into a judgment, returns null for a line that is none (a header), or
 * throws on a value it cannot read.
 */
export async function readJudgmentLines(
  file: string,
  layout: string,
  judge: (fields: JudgmentFields, where: string, first: boolean) => RelevantJudgment | null,
): Promise<JudgmentsRead> {
  const judgments: RelevantJudgment[] = [];
  let nonRelevant = 0;
  let first = true;
  for await (const { text, number } of readLines(file)) {
    if (text.trim() === "") continue;
    const fields = text.includes("\t") ? text.split("\t").map((f) => f.trim()) : text.trim().split(/\s+/);
    const [query, doc, grade] = fields;
    const where = `${file}:${number}`;
    if (query === undefined || doc === undefined || grade === undefined) {
      throw new EvaluationDataError(`${where}: expected "${layout}", got ${JSON.stringify(text)}`);
    }
    const judgment = judge([query, doc, grade], where, first);
    first = false;
    if (judgment === null) continue;
    if (judgment.gain <= 0) nonRelevant++;
    judgments.push(judgment);
  }
  return { judgments, nonRelevant };
}
