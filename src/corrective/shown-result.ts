// What the corrective pass knows about the result the model would receive, read once where the
// call enters and re-read after each merge. Two readers, chosen at the edge: a search that ran
// in-process is read from its structured response (the text is never parsed), and a result we
// only see as text (an external MCP server such as Huginn) is read from a bounded view of its
// text. The orchestrator's steps see only `ShownResult` and never ask which one they hold.

import { boundedView } from "../knowledge-tool/bounded-view.js";
import { docKey, renderDocIdLine } from "../knowledge-tool/doc-id-line.js";
import { countDocIdLines, detectBriefMode } from "../knowledge-tool/result-shape.js";
import type { Grade, Hit, RetryHints, SearchResponse } from "../types.js";
import { responseEvidence, type SignalEvidence } from "./borderline.js";
import { type BodySignalGrade, gradeFromBody, gradeFromResponse } from "./signal-grader.js";

/** What the grader sees of the current result, and what the merge needs to know about it. */
export interface Reading {
  signalGrade: Grade;
  hints: RetryHints;
  evidence: () => SignalEvidence;
}

/** The grader's reading and the text a model grader's digest is built from. */
export interface Reread {
  reading: Reading;
  /** A bounded view (head and tail) of the text, for the model grader's digest. */
  digestSource: string;
}

export interface ShownResult extends Reread {
  /** `collection/id` of every hit the result shows, so a re-query adds only what is new. */
  known: ReadonlySet<string>;
  hitsShown: number;
  /** The mode appended hits are rendered in. */
  brief: boolean;
  /** For a text too large to index whole: a hit counts as shown if its doc-id line is in it. */
  alreadyShown?: (hit: Hit) => boolean;
  /** Queries a server's own rescue already searched (asking again is waste). */
  searchedByServer: readonly string[];
  /** The reading once the text became `body`, `added` (every hit appended so far) appended. */
  reread(body: string, added: readonly Hit[]): Reread;
}

/** What `body` shows: read from `response` when the search ran in-process, else from the text. */
export function readShownResult(
  response: SearchResponse | undefined,
  body: string,
  brief: boolean,
): ShownResult {
  return response ? structuredResult(response, body, brief) : textResult(body, brief);
}

/**
 * A search that ran in-process: graded from its hits, never from text. After a merge the merged
 * hits' own relevance decides (the original's hints spoke of its hits alone); the digest source
 * stays the original text's view, as it always was for this path.
 */
export function structuredResult(response: SearchResponse, body: string, brief: boolean): ShownResult {
  const { retryHints: _originalHints, ...originalFields } = response;
  const digestSource = boundedView(body).view;
  return {
    known: new Set(response.results.map((hit) => docKey(hit))),
    hitsShown: response.results.length,
    brief,
    searchedByServer: (response.rescue?.queriesTried ?? []).filter((q): q is string => typeof q === "string"),
    reading: readResponse(response, response.bestScore),
    digestSource,
    reread: (_body, added) => {
      const merged = [...response.results, ...added];
      return {
        reading: readResponse({ ...originalFields, results: merged }, maxRelevance(merged)),
        digestSource,
      };
    },
  };
}

/**
 * A result we only see as text (its trace marker peeled): graded from a bounded view, one scan
 * per reading. `requestedBrief` applies only when the text shows no hit to tell the mode by.
 */
export function textResult(body: string, requestedBrief: boolean): ShownResult {
  const view = boundedView(body);
  const graded = gradeFromBody(view.view);
  return {
    known: new Set(graded.docKeys),
    hitsShown: view.truncated ? countDocIdLines(body) : graded.docKeys.length,
    brief: detectBriefMode(view.view) ?? requestedBrief,
    ...(view.truncated ? { alreadyShown: (hit: Hit) => body.includes(renderDocIdLine(hit)) } : {}),
    searchedByServer: [],
    reading: readText(graded),
    digestSource: view.view,
    reread: (merged) => {
      const mergedView = boundedView(merged).view;
      return { reading: readText(gradeFromBody(mergedView)), digestSource: mergedView };
    },
  };
}

/** Grading from structured hits: the merged set's best relevance decides, not re-parsed text. */
export function readResponse(response: SearchResponse, bestScore: number): Reading {
  const graded = { ...response, bestScore };
  const { signal: _signal, ...signalGrade } = gradeFromResponse(graded);
  return {
    signalGrade,
    hints: response.retryHints ?? {},
    evidence: () => responseEvidence(graded),
  };
}

/** Grading from a text's one scan (the relevances `auto` needs were read in that same pass). */
export function readText(graded: BodySignalGrade): Reading {
  const { scan } = graded;
  return {
    signalGrade: { verdict: graded.verdict, reason: graded.reason },
    hints: graded.hints,
    evidence: () => ({
      weak: graded.signal !== null,
      hitCount: scan.hitCount,
      hitsWithoutRelevance: scan.hitsWithoutRelevance,
      ...(scan.bestRelevance !== undefined ? { bestRelevance: scan.bestRelevance } : {}),
    }),
  };
}

export function maxRelevance(hits: readonly Hit[]): number {
  let best = 0;
  for (const hit of hits) if (Number.isFinite(hit.relevance) && hit.relevance > best) best = hit.relevance;
  return best;
}
