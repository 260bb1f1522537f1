// The entry point hooks, the MCP tool and the CLI call with one knowledge-search tool result
// (correctSearchCall for a call whose arguments were read where it entered; correctToolResult
// for one we only observe). It reads an observed call's arguments defensively, once, peels the
// trace marker once (re-appended unchanged),
// runs the corrective pass and fails soft: any error, odd input or abort means "nothing to
// say" (null), and the caller passes the original text through untouched. The caller decides
// which tools are knowledge searches (isKnowledgeSearchTool in the connector).

import { peelTraceMarker } from "../knowledge-tool/result-text.js";
import { RESULT_LIMITS } from "../limits.js";
import { logger } from "../telemetry/logger.js";
import type { CorrectiveOutcome, SearchResponse } from "../types.js";
import { type CorrectiveRetrievalInput, runCorrectiveRetrieval } from "./corrective-pass.js";
import type { SearchCall } from "./search-call.js";

export interface ToolResultCall {
  /** As the runtime reported it; used for logs only. */
  toolName: string;
  /** The model's arguments: `{ query, collection?, limit?, brief?, min_relevance? }`, unchecked. */
  toolArgs: unknown;
  /** The text the model would receive. */
  resultText: string;
  /** The structured response `resultText` was rendered from, when the search ran in-process. */
  response?: SearchResponse;
  /** The user's question, for a model grader (else `context.question`, else the query). */
  question?: string;
  /** Cancels this call's pass (the connector's per-call bound); combined with `context.signal`. */
  signal?: AbortSignal;
}

/** The pass's settings, shared with the orchestrator's input (one definition for both). */
export interface CorrectiveContext
  extends Pick<
    CorrectiveRetrievalInput,
    | "backend"
    | "budget"
    | "grader"
    | "grade"
    | "graderTimeoutMs"
    | "requeryTimeoutMs"
    | "signal"
    | "now"
    | "log"
    | "traceContext"
    | "languages"
  > {
  /**
   * The collections the caller may search (an HTTP token's scope, else the bot's list): the
   * grader is told only these, and no re-query searches or appends anything outside them. There
   * is no default: anything but a list allows nothing, so the pass re-queries nothing.
   */
  allowedCollections: readonly string[];
  /** The user's question for a model grader, when the call does not carry one. */
  question?: string;
}

export interface CorrectedToolResult {
  /** What the model should receive: the original when unchanged, else the merged text + marker. */
  text: string;
  /** `outcome.text === text`. */
  outcome: CorrectiveOutcome;
}

/**
 * null when there is nothing to say: unusable input, an abort, an internal error, or an
 * uneventful signal-mode check (the signal graded every pass `correct` and no model was asked;
 * no span either). Otherwise the outcome, with `text` byte-identical to `resultText` when
 * nothing changed. The edge for a call we only observe: its arguments are read here, once.
 */
export async function correctToolResult(
  call: ToolResultCall,
  ctx: CorrectiveContext,
): Promise<CorrectedToolResult | null> {
  const log = ctx?.log ?? logger();
  try {
    if (call === null || typeof call !== "object") return null;
    const text = call.resultText;
    if (!isCorrectableText(text)) return null;
    // The tools' argument schemas load here, for a call we only observe: a call of our own
    // (correctSearchCall) arrives with its arguments read.
    const { parseSearchArgs } = await import("../knowledge-tool/tool-arguments.js");
    const args = parseSearchArgs(call.toolArgs);
    if (!args) return null;
    const response = isSearchResponse(call.response) ? call.response : undefined;
    // The scope is read here, once, like the arguments: anything but a list allows nothing.
    const allowed: unknown = ctx.allowedCollections;
    const scope = Array.isArray(allowed) ? allowed.filter((c) => typeof c === "string") : [];
    return await correctSearchCall(
      { args, scope, text, ...(response ? { response } : {}) },
      callOptions(call),
      ctx,
    );
  } catch (error) {
    log.warn({ tool: safeName(call), err: error }, "corrective: pass failed; original result kept");
    return null;
  }
}

/** What a search call's pass takes besides the call: the question, the call's signal, its name. */
export interface SearchCallOptions {
  question?: string;
  signal?: AbortSignal;
  /** As the runtime reported it; for logs only. */
  toolName?: string;
}

/**
 * correctToolResult for a search call whose arguments were already read where it entered: the
 * trace marker is peeled once here, and the call's structured response (when it has one) is
 * what the pass grades.
 */
export async function correctSearchCall(
  call: SearchCall,
  options: SearchCallOptions,
  ctx: Omit<CorrectiveContext, "allowedCollections">,
): Promise<CorrectedToolResult | null> {
  const log = ctx?.log ?? logger();
  try {
    if (!isCorrectableText(call.text) || call.args.query.trim() === "") return null;
    const signal = combine(options.signal, ctx.signal);
    if (signal?.aborted) return null;
    const { body, marker } = peelTraceMarker(call.text);
    if (body.trim() === "") return null;
    const { args } = call;
    // The call's own scope: the pass never searches, tells the grader or appends beyond it.
    const allowed: unknown = call.scope;

    const outcome = await runCorrectiveRetrieval({
      question: typeof options.question === "string" ? options.question : (ctx.question ?? ""),
      originalQuery: args.query,
      ...(args.collections ? { originalCollections: args.collections } : {}),
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
      ...(args.brief !== undefined ? { brief: args.brief } : {}),
      ...(args.minRelevance !== undefined ? { minRelevance: args.minRelevance } : {}),
      originalText: body,
      ...(call.response ? { originalResponse: call.response } : {}),
      allowedCollections: Array.isArray(allowed) ? allowed.filter((c) => typeof c === "string") : [],
      budget: ctx.budget,
      grader: ctx.grader ?? "signal",
      ...(ctx.grade ? { grade: ctx.grade } : {}),
      ...(ctx.graderTimeoutMs !== undefined ? { graderTimeoutMs: ctx.graderTimeoutMs } : {}),
      ...(ctx.requeryTimeoutMs !== undefined ? { requeryTimeoutMs: ctx.requeryTimeoutMs } : {}),
      ...(signal ? { signal } : {}),
      ...(ctx.now ? { now: ctx.now } : {}),
      backend: ctx.backend,
      log,
      ...(ctx.traceContext ? { traceContext: ctx.traceContext } : {}),
      ...(ctx.languages ? { languages: ctx.languages } : {}),
    });

    const { metadata } = outcome;
    if (metadata.verdicts.length === 0) return null;
    if (
      !outcome.changed &&
      metadata.graderMode === "signal" &&
      metadata.verdicts.every((v) => v === "correct")
    ) {
      return null;
    }
    const text = outcome.changed ? outcome.text + marker : call.text;
    return { text, outcome: { ...outcome, text } };
  } catch (error) {
    log.warn(
      { tool: safeToolName(options.toolName), err: error },
      "corrective: pass failed; original result kept",
    );
    return null;
  }
}

/** A result text worth a pass: a non-empty string within the size bound. */
function isCorrectableText(text: unknown): text is string {
  return typeof text === "string" && text !== "" && text.length <= RESULT_LIMITS.correctableChars;
}

function callOptions(call: ToolResultCall): SearchCallOptions {
  const options: SearchCallOptions = { toolName: safeName(call) };
  if (typeof call.question === "string") options.question = call.question;
  if (call.signal) options.signal = call.signal;
  return options;
}

function combine(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

function isSearchResponse(value: unknown): value is SearchResponse {
  if (value === null || typeof value !== "object") return false;
  const response = value as Partial<SearchResponse>;
  return Array.isArray(response.results) && typeof response.bestScore === "number";
}

function safeName(call: ToolResultCall): string {
  try {
    return safeToolName(call?.toolName);
  } catch {
    return "?";
  }
}

function safeToolName(name: unknown): string {
  return typeof name === "string" ? name.slice(0, 100) : "?";
}
