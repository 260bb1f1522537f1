// The onPostToolUse hook: hands a knowledge-search result to the injected corrective pass and,
// when that pass produced different text, returns it as `modifiedResult` so the runtime gives
// the model the corrected text (verified end to end with runtime 1.0.85). The hook must never
// make a search worse: every failure, timeout or odd input lets the original pass through
// untouched (return undefined), and it never throws into the SDK (which would swallow the error
// silently anyway).

import type { SearchCall } from "../../corrective/search-call.js";
import { DEADLINES, DeadlineError, withDeadline } from "../../deadline.js";
import { parseSearchArgs, type SearchArgs } from "../../knowledge-tool/tool-arguments.js";
import { RESULT_LIMITS, SEARCH_LIMITS } from "../../limits.js";
import type { Logger } from "../../telemetry/logger.js";
import type { CorrectCall, CorrectFn, CorrectiveRecord, CorrectResult } from "../bot-runtime.js";
import type { CallMatcher } from "./call-matcher.js";
import type {
  PostToolUseHandler,
  PostToolUseHookInput,
  PostToolUseHookOutput,
} from "./post-tool-use-types.js";
import { isKnowledgeSearchTool } from "./tool-name.js";

/** What the hook needs from the question being answered when it fires. */
export interface HookTurnContext {
  matcher?: CallMatcher;
  /** The question's signal: a timed-out or cancelled question cancels its corrective passes. */
  signal?: AbortSignal;
  /** The user's question, handed to the corrective pass for a model grader. */
  question?: string;
}

export interface CorrectiveHookOptions {
  correct: CorrectFn;
  /**
   * The collections the session's caller may search (the session's search tool's list): every
   * call's corrective pass stays inside them (`CorrectCall.scope`).
   */
  scope: readonly string[];
  /** Bound on one corrective pass; past it the original passes through. Default 30 s. */
  timeoutMs?: number;
  /** Results longer than this are passed through unexamined (bounded work). Default RESULT_LIMITS.hookResultChars (src/limits.ts). */
  maxResultChars?: number;
  /** Queries longer than this are not real queries; passed through. Default 4,000. */
  maxQueryChars?: number;
  /** MCP server names attached to the session, to parse `<server>-<tool>` names exactly. */
  knownServers?: readonly string[];
  /** The current question's context, read when the hook fires. */
  context?: () => HookTurnContext | undefined;
  /**
   * Our own tool's call with these arguments and this text, if it is still waiting for its pass
   * (the hook input carries no call id: the key is the tool name and arguments, as for the matcher).
   */
  takeSearchCall?: (toolName: string, toolArgs: unknown, text: string) => SearchCall | undefined;
  log?: Logger;
}

export const DEFAULT_CORRECT_TIMEOUT_MS = DEADLINES.correctivePassMs;
export const DEFAULT_MAX_QUERY_CHARS = SEARCH_LIMITS.queryChars;

type Settled =
  | { kind: "ok"; result: CorrectResult | null }
  | { kind: "error"; error: unknown }
  | { kind: "timeout" }
  | { kind: "cancelled" };

/** Why a hook's tool result is not corrected, or undefined when it is fit for the corrective pass. */
export function resultSkipReason(
  input: Partial<PostToolUseHookInput>,
  limits: { maxResultChars: number },
): string | undefined {
  const result = input.toolResult as Partial<PostToolUseHookInput["toolResult"]> | undefined;
  if (result === null || typeof result !== "object") return "toolResult is not an object";
  if (result.resultType !== undefined && result.resultType !== "success") {
    return `tool result is ${String(result.resultType)}`;
  }
  const text = result.textResultForLlm;
  if (typeof text !== "string") return "textResultForLlm is not a string";
  if (text === "") return "textResultForLlm is empty";
  if (text.length > limits.maxResultChars) return `result longer than ${limits.maxResultChars} characters`;
  return undefined;
}

/**
 * What the pass is handed besides the text: our own tool's call whole (its arguments validated
 * by the tool, its structured response), else an observed call's arguments, read here once.
 */
function callOf(
  input: Partial<PostToolUseHookInput>,
  own: SearchCall | undefined,
  maxQueryChars: number,
): { searchCall: SearchCall } | { args: SearchArgs } | { skip: string } {
  if (own) return { searchCall: own };
  const args = parseSearchArgs(input.toolArgs);
  if (!args) return { skip: "toolArgs carry no usable query" };
  if (args.query.length > maxQueryChars) return { skip: `query longer than ${maxQueryChars} characters` };
  return { args };
}

/** Runs `correct` under its own deadline and the question's signal; never rejects. */
async function runBounded(
  correct: CorrectFn,
  call: Omit<CorrectCall, "signal">,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): Promise<Settled> {
  try {
    const result = await withDeadline("corrective pass", timeoutMs, outer, (signal) =>
      correct({ ...call, signal }),
    );
    return { kind: "ok", result };
  } catch (error) {
    if (outer?.aborted) return { kind: "cancelled" };
    if (error instanceof DeadlineError) return { kind: "timeout" };
    return { kind: "error", error };
  }
}

export function createCorrectiveHook(options: CorrectiveHookOptions): PostToolUseHandler {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CORRECT_TIMEOUT_MS;
  const limits = {
    maxResultChars: options.maxResultChars ?? RESULT_LIMITS.hookResultChars,
    maxQueryChars: options.maxQueryChars ?? DEFAULT_MAX_QUERY_CHARS,
  };
  const log = options.log;

  return async (rawInput): Promise<PostToolUseHookOutput | undefined> => {
    try {
      if (rawInput === null || typeof rawInput !== "object") return undefined;
      const input = rawInput as Partial<PostToolUseHookInput>;
      const toolName = input.toolName;
      if (typeof toolName !== "string" || !isKnowledgeSearchTool(toolName, options.knownServers)) {
        return undefined;
      }
      const context = options.context?.();
      // Claimed before any await, for every knowledge search, so later identical calls stay aligned.
      const claim = context?.matcher?.claim(toolName, input.toolArgs);
      let record: CorrectiveRecord | undefined;
      try {
        const shown = (input.toolResult as Partial<PostToolUseHookInput["toolResult"]> | undefined)
          ?.textResultForLlm;
        const own =
          typeof shown === "string" ? options.takeSearchCall?.(toolName, input.toolArgs, shown) : undefined;
        const reason = resultSkipReason(input, limits);
        const handed = reason === undefined ? callOf(input, own, limits.maxQueryChars) : { skip: reason };
        if ("skip" in handed) {
          own?.toolSpan?.endAtResult();
          log?.debug({ tool: toolName, reason: handed.skip }, "corrective hook: passing result through");
          return undefined;
        }
        const toolResult = input.toolResult!;
        const original = toolResult.textResultForLlm;
        const settled = await runBounded(
          options.correct,
          {
            toolName,
            toolArgs: input.toolArgs,
            resultText: original,
            scope: options.scope,
            ...(context?.question ? { question: context.question } : {}),
            ...handed,
          },
          timeoutMs,
          context?.signal,
        );
        if (settled.kind === "timeout" || settled.kind === "error") {
          record = { changed: false, metadata: null, failure: settled.kind };
          log?.warn(
            { tool: toolName, err: settled.kind === "error" ? String(settled.error) : undefined },
            `corrective hook: ${settled.kind === "timeout" ? `no outcome within ${timeoutMs} ms` : "corrective pass failed"}; original result kept`,
          );
          return undefined;
        }
        if (settled.kind === "cancelled" || settled.result === null || typeof settled.result !== "object") {
          return undefined;
        }
        const { text, changed, metadata } = settled.result;
        const usable = changed === true && typeof text === "string" && text !== "" && text !== original;
        record = { changed: usable, metadata: metadata ?? null };
        if (!usable) return undefined;
        return { modifiedResult: { ...toolResult, textResultForLlm: text } };
      } finally {
        claim?.settle(record);
      }
    } catch (error) {
      log?.warn({ err: error }, "corrective hook: unexpected error; original result kept");
      return undefined;
    }
  };
}
