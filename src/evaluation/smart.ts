import { EvaluationDataError } from "./data-error.js";
import { readLines } from "./line-reader.js";

// The SMART layout of the classic test collections (Cranfield, CISI, CACM, MED): records open
// with `.I <id>`, then fields open with a line `.<LETTER>` (`.T` title, `.W` text, `.A`
// authors, ...) and run until the next marker.

export interface SmartRecord {
  /** The `.I` value as written (CISI and cran.qry pad it, e.g. `001`). */
  id: string;
  /** Line of the `.I` marker, for error messages. */
  line: number;
  /** Field letter -> its lines joined with "\n" (a repeated field is appended). */
  fields: Map<string, string>;
}

// A marker is a whole line: a dot, one capital letter, then optionally whitespace and a value.
// Body text in these collections never starts a line that way ("." tokens are lower-case or
// digits), and there is no escape mechanism to honour anyway.
const MARKER = /^\.([A-Z])(?:\s+(.*?))?\s*$/;

export async function* readSmartRecords(file: string): AsyncGenerator<SmartRecord> {
  let record: SmartRecord | undefined;
  let field: string | undefined;
  let lines: string[] = [];
  const closeField = (): void => {
    if (record === undefined || field === undefined) return;
    const previous = record.fields.get(field);
    const text = lines.join("\n");
    record.fields.set(field, previous === undefined ? text : `${previous}\n${text}`);
    lines = [];
  };

  for await (const { text, number } of readLines(file)) {
    const marker = MARKER.exec(text);
    if (marker !== null) {
      const [, letter, value] = marker;
      closeField();
      if (letter === "I") {
        if (record !== undefined) yield record;
        const id = (value ?? "").trim();
        if (id === "") throw new EvaluationDataError(`${file}:${number}: .I marker without an id`);
        record = { id, line: number, fields: new Map() };
        field = undefined;
        continue;
      }
      if (record === undefined)
        throw new EvaluationDataError(`${file}:${number}: field .${letter} before the first .I record`);
      field = letter;
      lines = value === undefined || value === "" ? [] : [value];
      continue;
    }
    if (field !== undefined) lines.push(text);
    else if (text.trim() !== "") {
      throw new EvaluationDataError(
        `${file}:${number}: text outside any field (expected a .I or .<letter> marker)`,
      );
    }
  }
  closeField();
  if (record !== undefined) yield record;
}

/**
 * SMART ids are numbers, written with or without zero padding (`.I 001` in cran.qry, `1` in
 * the judgments); compare them as numbers. Anything that is not all digits is kept as is.
 */
export function canonicalSmartId(id: string): string {
  const trimmed = id.trim();
  // Strip the padding textually: Number() would round ids beyond 2^53.
  return /^\d+$/.test(trimmed) ? trimmed.replace(/^0+(?=\d)/, "") : trimmed;
}

/** SMART wraps text at a fixed width; the line breaks carry no meaning. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
