// One knowledge search, start to finish, as one value (`SearchCall`, corrective/search-call.ts):
// `searchCall` runs it inside its `execute_tool` span and renders its text, with the caller's
// scope cut to the bot's collections; `correctCall` runs the corrective pass on it and hands back
// the same call with its correction; `modelText` is the text the model reads. The MCP tool,
// `search` and `eval` call these in turn; the Copilot tool runs `searchCall` and its session's
// onPostToolUse hook runs `correctCall` (through `correctFnOf`: the SDK hands the hook a text, not
// the call). Nothing here remembers a call: the value carries everything a later step needs.

import { context } from "@opentelemetry/api";
import {
  type CorrectiveBlock,
  type ResolvedCorrectiveConfig,
  resolveCorrectiveConfig,
} from "../corrective/corrective-config.js";
import type { CorrectiveLanguages } from "../corrective/corrective-pass.js";
import type { GradeFn } from "../corrective/llm-grade.js";
import { type SearchCall, searchArgsOf } from "../corrective/search-call.js";
import { languageDetector } from "../knowledge/analysis/detect.js";
import { renderSearchResponse } from "../knowledge-tool/render.js";
import { withOpenToolSpan } from "../telemetry/tool-span.js";
import {
  type CollectionLanguage,
  type KnowledgeBackend,
  SEARCH_KNOWLEDGE_TOOL,
  type SearchRequest,
} from "../types.js";
import { languageTags, mayBeInAnotherLanguage, searchedLanguages } from "../weakness.js";
import type { CorrectCall, CorrectFn } from "./bot-runtime.js";

export { modelText, type SearchCall } from "../corrective/search-call.js";

/** What a bot's searches run through, assembled once per bot (assemble-bot.ts). */
export interface SearchPipeline {
  /** The bot's backend, behind its retrieval strategies when they are on. */
  backend: KnowledgeBackend;
  /** The bot's collections: every call's scope is cut to them. */
  botList: readonly string[];
  /** The bot's corrective settings, resolved with `env` per search (the kill-switch applies at once). */
  corrective: { config: CorrectiveBlock | undefined; env: NodeJS.ProcessEnv };
}

/** A bot's corrective pass as resolved for a session or a call: its settings and its parts. */
export interface Corrector {
  /** Searched directly for re-queries: they are part of the tool call, not new ones. */
  backend: KnowledgeBackend;
  settings: ResolvedCorrectiveConfig;
  /** The model grader, when the setting asks for one and it could be built. */
  grade?: GradeFn;
  /** Each collection's document language, when any is known (a query in another one is weak). */
  languages?: Readonly<Record<string, CollectionLanguage>>;
}

/** What a pass on a call takes besides the call. */
export interface CorrectCallOptions {
  signal?: AbortSignal;
  /** The user's question, for a model grader. */
  question?: string;
  /** As the runtime reported it; for logs only. */
  toolName?: string;
}

/**
 * The search, as the call the rest of the pipeline takes: its arguments, the caller's `scope`
 * (within the bot's list; anything but a list allows nothing), the structured response, its
 * text and — when a corrective pass will follow — its still open `execute_tool` span.
 */
export async function searchCall(
  pipeline: SearchPipeline,
  request: SearchRequest,
  scope: unknown,
  options?: { signal?: AbortSignal },
): Promise<SearchCall> {
  const spanArgs = searchToolArgs(request);
  const { value: response, span } = await withOpenToolSpan(SEARCH_KNOWLEDGE_TOOL, spanArgs, () =>
    pipeline.backend.search(request, options),
  );
  // The pass's spans are this span's children: it stays open until the pass ends, or ends now
  // when none will run.
  const passFollows = resolveCorrectiveConfig(pipeline.corrective.config, pipeline.corrective.env).enabled;
  if (!passFollows) span.endAtResult();
  const text = renderSearchResponse(response, { brief: request.brief === true });
  return {
    args: searchArgsOf(request),
    scope: callScope(pipeline.botList, scope),
    text,
    response,
    ...(passFollows ? { toolSpan: span } : {}),
  };
}

/**
 * The call with its correction, when the pass had something to say; the call as it was
 * otherwise (a failed grader or re-query included: the pass fails soft). Its span ends here.
 */
export async function correctCall(
  corrector: Corrector | undefined,
  call: SearchCall,
  options: CorrectCallOptions,
): Promise<SearchCall> {
  if (!corrector) {
    call.toolSpan?.endAtResult();
    return call;
  }
  const { settings, backend } = corrector;
  // The grader's `chat` span belongs under this tool call, like the re-query spans.
  const parent = call.toolSpan?.context;
  const model = corrector.grade;
  const grade: GradeFn | undefined =
    model && parent ? (input) => context.with(parent, () => model(input)) : model;
  try {
    // The detector (about 13 ms and 11 MiB to load: detect.ts) loads once per process, on the
    // first search the pass will ask it about: one whose query could be in another language than
    // the collections it searched, by the rule the pass applies (weakness.ts mayBeInAnotherLanguage).
    const searched = searchedLanguages(call.args.collections ?? call.scope, corrector.languages);
    const asksDetector =
      searched !== undefined &&
      mayBeInAnotherLanguage(call.args.query, languageTags(searched), call.response?.queryCoverage);
    const languages: CorrectiveLanguages | undefined = corrector.languages
      ? { collections: corrector.languages, guess: asksDetector ? await languageDetector() : () => undefined }
      : undefined;
    // The pass's modules load with its first call: a bot with corrective retrieval off never loads them.
    const { correctSearchCall } = await import("../corrective/correct-tool-result.js");
    const corrected = await correctSearchCall(
      call,
      {
        ...(options.toolName !== undefined ? { toolName: options.toolName } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.question ? { question: options.question } : {}),
      },
      {
        backend,
        budget: settings.retryBudget,
        grader: settings.grader,
        ...(grade ? { grade } : {}),
        graderTimeoutMs: settings.graderTimeoutMs,
        ...(parent ? { traceContext: parent } : {}),
        ...(languages ? { languages } : {}),
      },
    );
    return corrected ? { ...call, correction: corrected.outcome } : call;
  } finally {
    call.toolSpan?.end();
  }
}

/**
 * The pass as the Copilot SDK's onPostToolUse hook (and a host) calls it: the hook input holds
 * the tool's text, not our call, so the call comes back as `CorrectCall.searchCall` (taken from
 * the session by its key), else it is an observed call read from its text. The call's scope is
 * the one the hook was given, within the bot's list.
 */
export function correctFnOf(corrector: Corrector, botList: readonly string[]): CorrectFn {
  return async (call) => {
    const handed = await handedOver(call, callScope(botList, call.scope));
    if (!handed) return null;
    const { correction } = await correctCall(corrector, handed, {
      toolName: call.toolName,
      signal: call.signal,
      ...(call.question ? { question: call.question } : {}),
    });
    if (!correction) return null;
    return {
      text: correction.text,
      changed: correction.changed,
      metadata: correction.metadata,
      ...(correction.added ? { added: correction.added } : {}),
    };
  };
}

/**
 * A call handed to the hook: our own tool's, whole, else an observed call read from its text
 * (its arguments read here once unless the connector already read them).
 */
async function handedOver(call: CorrectCall, scope: string[]): Promise<SearchCall | undefined> {
  if (call.searchCall) return { ...call.searchCall, scope };
  const args =
    call.args ?? (await import("../knowledge-tool/tool-arguments.js")).parseSearchArgs(call.toolArgs);
  if (!args || typeof call.resultText !== "string") return undefined;
  return { args, scope, text: call.resultText };
}

/**
 * The collections a call may have corrected: its caller's scope, within the bot's list, in the
 * bot's order. A scope that is not a list of names allows nothing (the pass then re-queries
 * nothing): a connector that forgot it never widens a call to the whole bot.
 */
export function callScope(botList: readonly string[], scope: unknown): string[] {
  if (!Array.isArray(scope)) return [];
  const named = new Set(scope.filter((c): c is string => typeof c === "string"));
  return botList.filter((name) => named.has(name));
}

/** A search's arguments as its span records them (the query and the collections). */
export function searchToolArgs(request: SearchRequest): Record<string, unknown> {
  const args: Record<string, unknown> = { query: request.query };
  if (request.collections?.length) args.collection = request.collections.join(",");
  return args;
}
