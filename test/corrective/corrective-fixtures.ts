// Shared builders for the corrective tests: hits, responses, a recording stub backend, a silent
// logger, and the docs/reference/muninn-corrective-retrieval.md §3.5 texts taken from the protocol tests' fixtures (one source).

import { pino } from "pino";
import {
  type CorrectiveRetrievalInput,
  runCorrectiveRetrieval,
} from "../../src/corrective/corrective-pass.js";
import type { Logger } from "../../src/telemetry/logger.js";
import type {
  Grade,
  Hit,
  KnowledgeBackend,
  RetryHints,
  SearchRequest,
  SearchResponse,
} from "../../src/types.js";
import { muninnBodyD, muninnMergedB } from "../knowledge-tool/huginn-fixtures.js";

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

// The muninn fixtures (B, C, D) come from the protocol tests' copy, so there is one source.
export {
  muninnBodyD as oldDocText,
  muninnFenceD as fenceD,
  muninnTextB as textB,
  muninnTextC as textC,
  muninnTextD as textD,
  muninnWiderHit as widerHit,
} from "../knowledge-tool/huginn-fixtures.js";

export const oldDocDuplicate = hit("wiki", "1", "Old doc", 0.7, "weak body again");

/** B after one re-query, with our signal grader's reason instead of muninn's. */
export const mergedB = muninnMergedB.replace(
  "(Huginn flagged the result as low confidence)",
  "(the search flagged the result as low confidence)",
);

export const QUESTION = "what SEDs belong to LA_BUC_02?";

/** The orchestrator on the old-doc fixture: one weak wiki result, budget 1, silent logs. */
export function run(overrides: Partial<CorrectiveRetrievalInput> & { backend: KnowledgeBackend }) {
  return runCorrectiveRetrieval({
    question: QUESTION,
    originalQuery: "LA_BUC_02",
    originalText: muninnBodyD,
    allowedCollections: ["wiki"],
    budget: 1,
    log: silent,
    ...overrides,
  });
}
