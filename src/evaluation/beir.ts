import path from "node:path";
import { EvaluationDataError } from "./data-error.js";
import { assembleDataset, type EvalDataset, type EvalDoc, type EvalQuery } from "./dataset.js";
import { readJudgmentLines } from "./judgment-lines.js";
import { readLines } from "./line-reader.js";

// The BEIR layout: the one users bring their own judged queries in.
//   corpus.jsonl        {"_id", "title", "text", ...}
//   queries.jsonl       {"_id", "text", ...}
//   qrels/<split>.tsv   header, then `query-id <TAB> corpus-id <TAB> score` (graded, higher is
//                       more relevant; score <= 0 is a judged non-relevant document)

export interface BeirOptions {
  /** Which qrels file to read: qrels/<split>.tsv. Default "test", as BEIR reports. */
  split?: string;
  /** Dataset name; default the directory's name. */
  name?: string;
}

/**
 * Reads a BEIR dataset from `dir`, line by line (BEIR corpora run to millions of lines).
 * Malformed JSON or a record without a usable `_id`/`text` fails with the file and line.
 * Queries without a relevant judgment in the split are dropped ("judged queries only"); a
 * later qrels line for the same pair replaces an earlier one (as BEIR's dictionary does).
 */
export async function readBeir(dir: string, options: BeirOptions = {}): Promise<EvalDataset> {
  const docs: EvalDoc[] = [];
  const seenDocs = new Set<string>();
  for await (const doc of readBeirCorpus(path.join(dir, "corpus.jsonl"))) {
    // Two documents under one id would make every judgment for it ambiguous.
    if (seenDocs.has(doc.id))
      throw new EvaluationDataError(`${doc.location}: duplicate _id ${JSON.stringify(doc.id)}`);
    seenDocs.add(doc.id);
    docs.push({ id: doc.id, title: doc.title, text: doc.text });
  }
  const queries = await readBeirQueries(path.join(dir, "queries.jsonl"));
  const judged = await readBeirQrels(path.join(dir, "qrels", `${options.split ?? "test"}.tsv`));
  return assembleDataset({ dir, name: options.name, docs, queries, judged });
}

/**
 * The corpus one document at a time, for callers that index as they read instead of holding
 * the whole corpus. `location` is `file:line`, for the caller's own error messages.
 */
export async function* readBeirCorpus(file: string): AsyncGenerator<EvalDoc & { location: string }> {
  for await (const { record, location } of readJsonl(file)) {
    yield {
      id: requireId(record, location),
      title: optionalString(record, "title", location),
      text: requireString(record, "text", location),
      location,
    };
  }
}

async function readBeirQueries(file: string): Promise<EvalQuery[]> {
  const queries: EvalQuery[] = [];
  const seen = new Set<string>();
  for await (const { record, location } of readJsonl(file)) {
    const id = requireId(record, location);
    if (seen.has(id)) throw new EvaluationDataError(`${location}: duplicate query _id ${JSON.stringify(id)}`);
    seen.add(id);
    queries.push({ id, text: requireString(record, "text", location) });
  }
  return queries;
}

/** BEIR's qrels: a header line, then graded pairs (a score <= 0 is a judged non-relevant pair). */
function readBeirQrels(file: string) {
  return readJudgmentLines(
    file,
    "query-id<TAB>corpus-id<TAB>score",
    ([queryId, docId, scoreField], where, first) => {
      const score = Number(scoreField);
      if (scoreField === "" || !Number.isFinite(score)) {
        // The header (`query-id corpus-id score`) is the one line allowed a non-numeric score.
        if (first) return null;
        throw new EvaluationDataError(`${where}: score ${JSON.stringify(scoreField)} is not a number`);
      }
      return { queryId, docId, gain: Math.max(score, 0) };
    },
  );
}

type JsonRecord = Record<string, unknown>;

async function* readJsonl(file: string): AsyncGenerator<{ record: JsonRecord; location: string }> {
  for await (const { text, number } of readLines(file)) {
    if (text.trim() === "") continue;
    const location = `${file}:${number}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new EvaluationDataError(`${location}: malformed JSON (${(error as Error).message})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new EvaluationDataError(`${location}: expected a JSON object`);
    }
    yield { record: value as JsonRecord, location };
  }
}

function requireId(record: JsonRecord, location: string): string {
  const id = record._id;
  // Some exports write numeric ids; the judgments name them as text either way.
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  if (typeof id === "string" && id.trim() !== "") return id.trim();
  throw new EvaluationDataError(`${location}: missing or empty "_id"`);
}

function requireString(record: JsonRecord, key: string, location: string): string {
  const value = record[key];
  if (typeof value !== "string") throw new EvaluationDataError(`${location}: "${key}" must be a string`);
  return value;
}

function optionalString(record: JsonRecord, key: string, location: string): string {
  const value = record[key];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new EvaluationDataError(`${location}: "${key}" must be a string`);
  return value;
}
