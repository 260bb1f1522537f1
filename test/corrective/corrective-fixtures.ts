// Shared builders for the corrective tests: hits, responses, a recording stub backend, a silent
// logger and the muninn §3.5 texts (re-typed here so these tests do not move with other suites).
import { pino } from "pino";
import type { Logger } from "../../src/telemetry/logger.js";
import type {
  Grade,
  Hit,
  KnowledgeBackend,
  RetryHints,
  SearchRequest,
  SearchResponse,
} from "../../src/types.js";

export const silent: Logger = pino({ level: "silent" });

export function hit(collection: string, id: string, title: string, relevance: number, content = "body"): Hit {
  return {
    collection,
    id,
    title,
    relevance,
    band: relevance >= 0.65 ? "high" : relevance >= 0.4 ? "medium" : "low",
    chunks: [{ content }],
  };
}

export function response(query: string, results: Hit[], retryHints?: RetryHints): SearchResponse {
  const bestScore = results.reduce((best, h) => Math.max(best, h.relevance), 0);
  const r: SearchResponse = { query, results, bestScore, reranked: true };
  if (results.length === 0) r.noConfidentResults = true;
  if (retryHints) r.retryHints = retryHints;
  return r;
}

export interface RecordingBackend extends KnowledgeBackend {
  requests: SearchRequest[];
}

/** A backend answering each request with `answer(request)` (a throw becomes a rejection). */
export function stubBackend(
  answer: (request: SearchRequest, signal?: AbortSignal) => SearchResponse | Promise<SearchResponse>,
  collections: string[] = ["wiki"],
): RecordingBackend {
  const requests: SearchRequest[] = [];
  return {
    requests,
    collections: () => collections,
    async search(request, options) {
      requests.push(structuredClone(request));
      return answer(request, options?.signal);
    },
  };
}

/** A grade function returning `grades` in turn (the last one repeats), counting its calls. */
export function scriptedGrader(...grades: Grade[]) {
  const inputs: { question: string; text: string; digestSource: string }[] = [];
  const fn = async (input: { question: string; text: string; digestSource: string }): Promise<Grade> => {
    inputs.push({ question: input.question, text: input.text, digestSource: input.digestSource });
    return grades[Math.min(inputs.length - 1, grades.length - 1)]!;
  };
  return Object.assign(fn, { inputs });
}

/** A clock that advances `step` ms per reading. */
export function steppingClock(step = 5): () => number {
  let t = 0;
  return () => {
    t += step;
    return t;
  };
}

export const oldDocText = [
  "## Old doc (30.0% relevant · low)",
  "collection: `wiki` doc_id: `1`",
  "",
  "weak body",
].join("\n");
export const oldDocDuplicate = hit("wiki", "1", "Old doc", 0.7, "weak body again");

/** muninn B: a weak match with a usable hint. */
export const textB = [
  "## Marginal hit (12% relevant · low)",
  "collection: `wiki` doc_id: `1`",
  "",
  "meh",
  "",
  '*Weak match — try: broader query: "LA_BUC concepts"*',
].join("\n");
export const widerHit: Hit = {
  collection: "wiki",
  id: "2",
  title: "Wider hit",
  relevance: 0.6,
  band: "medium",
  chunks: [{ content: "useful" }],
};
/** B after one re-query, with our signal grader's reason. */
export const mergedB = [
  "## Marginal hit (12% relevant · low)",
  "collection: `wiki` doc_id: `1`",
  "",
  "meh",
  "",
  "---",
  '[corrective retrieval — re-query #1: prior results graded "insufficient" (the search flagged the result as low confidence); re-searched "LA_BUC concepts" in collection wiki; 1 additional result below, deduped against the results above]',
  "",
  "## Wider hit (60.0% relevant · medium)",
  "collection: `wiki` doc_id: `2`",
  "",
  "useful",
].join("\n");

/** muninn C: no results, with a narrower hint. */
export const textC = [
  "No results found for 'xyz'.",
  "",
  '*No confident match — try: narrower query: "xyz precise term"*',
].join("\n");

/** muninn D: a weak body followed by Huginn's inline trace fence. */
export const fenceD = '\n\n```huginn-trace\n{"schemaVersion":1,"totalMs":42}\n```';
export const textD = oldDocText + fenceD;
