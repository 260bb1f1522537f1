// The strategies behind a KnowledgeBackend (docs/design.md §7), so the corrective orchestrator and the
// tools use them without knowing they exist. One wrapper, four switches:
// - rerankStrategy "single-pass": a search that asks for the careful pass explicitly
//   (`rerank: true`, which is how the orchestrator re-queries) has its top hits reranked by
//   one selection call; a model's own searches (rerank unset) stay lexical.
// - deepFallback: such a re-query whose response is still weak, while the run's budget
//   remains, reads its leading documents with treewalk (paged) or agentic (not paged) and
//   rebuilds each document's hit from the sections they select, with their pages. It reads only
//   documents of the collections the request named (a corrective re-query always names its
//   call's allow-list), whatever the backend returned.
// - planning: a multi-hop question (the planner says so) is searched per sub-question and the
//   results merged, each document once, best relevance first.
// - answerSpans: the top hits get a verbatim quote.
// Every model step is bounded and fails soft: on any error the lexical response stands.

import { DEADLINES } from "../deadline.js";
import type { LlmClient } from "../llm/llm-client.js";
import type { Hit, KnowledgeBackend, SearchRequest, SearchResponse } from "../types.js";
import { isWeak } from "../weakness.js";
import { attachAnswerSpans } from "./answer/attach-answer-spans.js";
import type { Planner } from "./plan/planner.js";
import { AgenticStrategy } from "./select/agentic.js";
import type { RunLimits } from "./select/model-turns.js";
import { rerankHitsSinglePass } from "./select/rerank-hits.js";
import { TreeWalkStrategy } from "./select/treewalk.js";
import { StrategiesError } from "./strategies-error.js";
import { hasPages, treeFromDoc } from "./tree/document-tree.js";
import { sectionHit } from "./tree/section-hits.js";

export interface RetrievalSettings {
  rerankStrategy: "lexical" | "single-pass";
  planning: boolean;
  answerSpans: boolean;
  /**
   * Deep fallback on weak re-queries: "auto" reads paged documents with treewalk, others with
   * agentic. Default "off", as in a bot's config: each deep read costs several model calls.
   */
  deepFallback?: "auto" | "treewalk" | "agentic" | "off";
}

export interface StrategicBackendOptions {
  llm: LlmClient;
  settings: RetrievalSettings;
  planner?: Planner;
  /** Bounds of each model step (rerank, one deep read, spans); default 20 s per step. */
  limits?: RunLimits;
  /** Documents read by the deep fallback (default 2). */
  deepDocuments?: number;
  /** Called with each model step that failed (for a log line); never throws into the search. */
  onError?: (step: string, error: unknown) => void;
}

const STEP_TIMEOUT_MS = DEADLINES.strategyStepMs;
const MAX_SUB_QUESTIONS = 4;

/** Is any strategy switched on? When not, wrap nothing. */
export function strategiesActive(settings: RetrievalSettings): boolean {
  return (
    settings.rerankStrategy === "single-pass" ||
    settings.planning ||
    settings.answerSpans ||
    deepFallbackOn(settings)
  );
}

function deepFallbackOn(settings: RetrievalSettings): boolean {
  return (settings.deepFallback ?? "off") !== "off";
}

export function strategicBackend(
  backend: KnowledgeBackend,
  options: StrategicBackendOptions,
): KnowledgeBackend {
  const { llm, settings } = options;
  const limits = (signal?: AbortSignal): RunLimits => ({
    timeoutMs: STEP_TIMEOUT_MS,
    ...options.limits,
    ...(signal ? { signal } : {}),
  });
  const soft = async <T>(step: string, fallback: T, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      try {
        options.onError?.(step, error);
      } catch {
        // A logger must not break a search.
      }
      return fallback;
    }
  };

  const wrapped: KnowledgeBackend = {
    collections: () => backend.collections(),
    async search(request: SearchRequest, searchOptions?: { signal?: AbortSignal }): Promise<SearchResponse> {
      const signal = searchOptions?.signal;
      let response = await searchPlanned(request, searchOptions);
      const careful = request.rerank === true;
      if (careful && settings.rerankStrategy === "single-pass" && response.results.length > 1) {
        const current = response;
        response = await soft("rerank", current, async () => {
          const outcome = await rerankHitsSinglePass(llm, request.query, current.results, limits(signal));
          if (outcome.error) throw new StrategiesError("rerank-failed", outcome.error);
          return { ...current, results: outcome.hits, reranked: current.reranked || outcome.reranked };
        });
      }
      if (
        careful &&
        deepFallbackOn(settings) &&
        isWeak(response) &&
        response.results.length > 0 &&
        backend.getDocument
      ) {
        const current = response;
        response = await soft("deep fallback", current, () => deepRead(current, request, signal));
      }
      if (settings.answerSpans && response.results.length > 0) {
        const current = response;
        response = await soft("answer spans", current, async () => ({
          ...current,
          results: await attachAnswerSpans(llm, request.query, current.results, limits(signal)),
        }));
      }
      return response;
    },
  };
  if (backend.getDocument) wrapped.getDocument = backend.getDocument.bind(backend);
  return wrapped;

  async function searchPlanned(
    request: SearchRequest,
    searchOptions?: { signal?: AbortSignal },
  ): Promise<SearchResponse> {
    if (!settings.planning || !options.planner) return backend.search(request, searchOptions);
    const planner = options.planner;
    const plan = await soft(
      "planning",
      null,
      async () => (await planner.plan(request.query, limits(searchOptions?.signal))).plan,
    );
    const subs = plan?.isMultiHop ? (plan.subQuestions ?? []).slice(0, MAX_SUB_QUESTIONS) : [];
    if (subs.length === 0) return backend.search(request, searchOptions);
    const responses: SearchResponse[] = [];
    for (const sub of subs) responses.push(await backend.search({ ...request, query: sub }, searchOptions));
    return mergeResponses(request, responses);
  }

  async function deepRead(
    response: SearchResponse,
    request: SearchRequest,
    signal?: AbortSignal,
  ): Promise<SearchResponse> {
    const { query } = request;
    const getDocument = backend.getDocument!.bind(backend);
    const named = request.collections?.length ? new Set(request.collections) : undefined;
    const leading = response.results
      .filter((hit) => named === undefined || named.has(hit.collection))
      .slice(0, options.deepDocuments ?? 2);
    const replaced = new Map<Hit, Hit>();
    for (const hit of leading) {
      if (signal?.aborted) break;
      const doc = await getDocument(hit.collection, hit.id);
      if (!doc) continue;
      const tree = treeFromDoc(doc);
      const mode = settings.deepFallback ?? "off";
      const strategy =
        mode === "treewalk" || (mode === "auto" && hasPages(tree))
          ? new TreeWalkStrategy(llm)
          : new AgenticStrategy(llm);
      const result = await strategy.select(tree, query, {}, limits(signal));
      const rebuilt = sectionHit(hit, tree, result);
      if (rebuilt) replaced.set(hit, rebuilt);
    }
    if (replaced.size === 0) return response;
    const results = response.results.map((h) => replaced.get(h) ?? h);
    return { ...response, results, reranked: true };
  }
}

/** Sub-question responses merged: each document once (its best hit), best relevance first. */
export function mergeResponses(request: SearchRequest, responses: readonly SearchResponse[]): SearchResponse {
  const best = new Map<string, Hit>();
  for (const r of responses) {
    for (const hit of r.results) {
      const key = `${hit.collection}/${hit.id}`;
      const seen = best.get(key);
      if (!seen || hit.relevance > seen.relevance) best.set(key, hit);
    }
  }
  const results = [...best.values()].sort((a, b) => b.relevance - a.relevance).slice(0, request.limit ?? 10);
  const bestScore = Math.max(0, ...responses.map((r) => r.bestScore));
  const merged: SearchResponse = {
    query: request.query,
    results,
    bestScore,
    reranked: responses.every((r) => r.reranked),
  };
  if (results.length === 0) merged.noConfidentResults = true;
  return merged;
}
