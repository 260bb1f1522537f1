// The composition root: the one place a bot is assembled from its parts. Its backend is wrapped
// in the retrieval strategies when the bot has a model and turns one on; each search runs inside
// an `execute_tool search_knowledge` span, and `renderCall` makes a search one value — its
// arguments, structured response, rendered text and open span — that the corrective pass takes
// whole (so the signal grader reads the response, not the text, and the corrective spans become
// the tool span's children: the span stays open until the pass is done); the corrective pass is resolved from the
// bot's config and the environment each time a session asks for it, with the model grader built
// on `graderProvider` when the bot sets one, else on the bot's own provider, else through Copilot
// (the bot's runtime and sign-in, so a Copilot bot needs no second key). Each collection's
// document language goes to the tools' descriptions, the grader and the corrective pass, which
// reads a query in another language as a weak search (src/weakness.ts isLanguageMismatch).
// The pass's scope is the call's (`CorrectCall.scope`, the caller's allow-list, within the bot's):
// the grader is told those collections only, and every re-query searches inside them.

import { context } from "@opentelemetry/api";
import type { BotDefinition } from "../bots/discovery.js";
import { botCollections } from "../bots/discovery.js";
import { correctSearchCall } from "../corrective/correct-tool-result.js";
import { type ResolvedCorrectiveConfig, resolveCorrectiveConfig } from "../corrective/corrective-config.js";
import { createKnowledgeGrader } from "../corrective/knowledge-grader.js";
import type { GradeFn } from "../corrective/llm-grade.js";
import type { CorrectiveLanguages } from "../corrective/orchestrator.js";
import { type SearchCall, searchArgsKey, searchArgsOf } from "../corrective/search-call.js";
import { errorMessage } from "../errors.js";
import { languageDetector } from "../knowledge/analysis/detect.js";
import { renderSearchResponse } from "../knowledge-tool/render.js";
import { parseSearchArgs } from "../knowledge-tool/tool-arguments.js";
import { createLlmClient } from "../llm/create-llm-client.js";
import type { LlmClient } from "../llm/llm-client.js";
import { Planner } from "../strategies/plan/planner.js";
import {
  type RetrievalSettings,
  strategicBackend,
  strategiesActive,
} from "../strategies/strategic-backend.js";
import { logger } from "../telemetry/logger.js";
import { type OpenToolSpan, withOpenToolSpan } from "../telemetry/tool-span.js";
import {
  type CollectionLanguage,
  type KnowledgeBackend,
  SEARCH_KNOWLEDGE_TOOL,
  type SearchRequest,
  type SearchResponse,
} from "../types.js";
import { hasLanguageEvidence } from "../weakness.js";
import type { CorrectCall, CorrectFn, RenderCall, RenderResult } from "./bot-runtime.js";
import { collectionLanguages } from "./collection-languages.js";
import { RememberedCalls } from "./remembered-calls.js";

export interface AssembledBot {
  /** The backend the tools search: the bot's, each search inside an `execute_tool` span. */
  backend: KnowledgeBackend;
  /**
   * A search's text, for a caller that then hands the text alone to `correctFor()`'s pass: the
   * call is remembered by its arguments until that pass takes it (prefer `renderCall`).
   */
  renderResult: RenderResult;
  /** A search as the one value the corrective pass takes (`CorrectCall.searchCall`). */
  renderCall: RenderCall;
  /** The corrective pass for a new session, or undefined when it is off (read from env now). */
  correctFor: () => CorrectFn | undefined;
  /** The resolution `correctFor` last used (for logs and `ask --json`). */
  lastResolution: () => ResolvedCorrectiveConfig | undefined;
  /** Each collection's document language, where known (for the tools' descriptions). */
  languages: Readonly<Record<string, CollectionLanguage>>;
}

/** What assembling needs of a bot: its config, and its folder for a Copilot-backed grader. */
export type BotToAssemble = Pick<BotDefinition, "config"> & Partial<Pick<BotDefinition, "dir">>;

/**
 * Told what the model grader could not do, for a caller that must not take the signal's stand-in
 * for the model's work (`eval` marks such a setting's figures unreliable). Sessions pass none:
 * for them the fallback to `correct` is the design (docs/design.md §5).
 */
export interface GraderObserver {
  /** The model grader could not be built (e.g. its key variable is unset): the signal grades. */
  unavailable?: (message: string) => void;
  /** One model grader call failed (threw or timed out); the pass treats the result as correct. */
  failed?: (error: unknown) => void;
}

export function assembleBot(
  bot: BotToAssemble,
  rawBackend: KnowledgeBackend,
  env: NodeJS.ProcessEnv = process.env,
  observer: GraderObserver = {},
): AssembledBot {
  const warned = new Set<string>();
  // With a model and a strategy switched on, every search of this bot (the model's and the
  // corrective re-queries) goes through the strategies (docs/design.md §7); else the lexical engine.
  const backend = withStrategies(bot, rawBackend, env, warned);
  const spans = new WeakMap<SearchResponse, OpenToolSpan>();
  // The request each response answered, for renderResult (which is handed the response alone).
  const requests = new WeakMap<SearchResponse, SearchRequest>();
  const remembered = new RememberedCalls();
  let resolution: ResolvedCorrectiveConfig | undefined;
  const languages = collectionLanguages(bot.config, rawBackend);
  const anyLanguage = Object.values(languages).some((l) => l.tags.length > 0);

  const traced: KnowledgeBackend = {
    collections: () => backend.collections(),
    search: async (request: SearchRequest, options?: { signal?: AbortSignal }) => {
      const { value: response, span } = await withOpenToolSpan(SEARCH_KNOWLEDGE_TOOL, toolArgs(request), () =>
        backend.search(request, options),
      );
      // The corrective pass on this result (if any) runs later and its spans are this span's
      // children: the span stays open until that pass ends, or ends now when none will run.
      if (resolveCorrectiveConfig(bot.config.correctiveRetrieval, env).enabled) spans.set(response, span);
      else span.endAtResult();
      if (response !== null && typeof response === "object") requests.set(response, request);
      return response;
    },
  };
  if (backend.getDocument) traced.getDocument = backend.getDocument.bind(backend);

  const renderCall: RenderCall = (request, response) => {
    const toolSpan = spans.get(response);
    spans.delete(response);
    const text = renderSearchResponse(response, { brief: request.brief === true });
    return { args: searchArgsOf(request), text, response, ...(toolSpan ? { toolSpan } : {}) };
  };

  const renderResult: RenderResult = (response, brief) => {
    const text = renderSearchResponse(response, { brief });
    const request = requests.get(response);
    if (!request) return text;
    const args = searchArgsOf(request);
    const toolSpan = spans.get(response);
    spans.delete(response);
    remembered.remember(searchArgsKey(args), { args, text, response, ...(toolSpan ? { toolSpan } : {}) });
    return text;
  };

  const correctFor = (): CorrectFn | undefined => {
    resolution = resolveCorrectiveConfig(bot.config.correctiveRetrieval, env);
    if (!resolution.enabled) return undefined;
    const settings = resolution;
    const modelGrade =
      settings.grader === "signal"
        ? undefined
        : observed(modelGrader(bot, settings, env, warned, observer, languages), observer);
    const botList = botCollections(bot.config);
    return async (call) => {
      const searchCall = call.searchCall ?? rememberedOrObserved(call, remembered);
      if (!searchCall) return null;
      const allowed = callScope(botList, call.scope);
      // The grader's `chat` span belongs under this tool call, like the re-query spans.
      const parent = searchCall.toolSpan?.context;
      const grade: GradeFn | undefined =
        modelGrade && parent ? (input) => context.with(parent, () => modelGrade(input)) : modelGrade;
      // The detector (n-grams of ~50 MB, a quarter of a second to load) loads once per process,
      // on the first search whose query has letters enough to be in another language.
      const corrective: CorrectiveLanguages | undefined = anyLanguage
        ? {
            collections: languages,
            guess: hasLanguageEvidence(searchCall.args.query) ? await languageDetector() : () => undefined,
          }
        : undefined;
      const corrected = await correctSearchCall(
        searchCall,
        {
          toolName: call.toolName,
          signal: call.signal,
          ...(call.question ? { question: call.question } : {}),
        },
        {
          // Re-queries go to the raw backend: they are part of this tool call, not new ones.
          backend,
          allowedCollections: allowed,
          budget: settings.retryBudget,
          grader: settings.grader,
          ...(grade ? { grade } : {}),
          graderTimeoutMs: settings.graderTimeoutMs,
          ...(parent ? { traceContext: parent } : {}),
          ...(corrective ? { languages: corrective } : {}),
        },
      ).finally(() => searchCall.toolSpan?.end());
      return (
        corrected && {
          text: corrected.text,
          changed: corrected.outcome.changed,
          metadata: corrected.outcome.metadata,
          ...(corrected.outcome.added ? { added: corrected.outcome.added } : {}),
        }
      );
    };
  };

  return {
    backend: traced,
    renderResult,
    renderCall,
    correctFor,
    lastResolution: () => resolution,
    languages,
  };
}

/**
 * A call handed over as text alone: the one this assembled bot rendered for the same arguments and
 * text (then its structure and span travel on), else the observed call, read from its text.
 * Its arguments are read here once unless the connector already read them.
 */
function rememberedOrObserved(call: CorrectCall, remembered: RememberedCalls): SearchCall | undefined {
  const args = call.args ?? parseSearchArgs(call.toolArgs);
  if (!args || typeof call.resultText !== "string") return undefined;
  const rendered = remembered.take(searchArgsKey(args), call.resultText);
  // The arguments as the caller handed them over, as every observed call's are read.
  return rendered ? { ...rendered, args } : { args, text: call.resultText };
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

/** The grader, its failures told to the observer (the caller's handling of them unchanged). */
function observed(grade: GradeFn | undefined, observer: GraderObserver): GradeFn | undefined {
  const failed = observer.failed;
  if (!grade || !failed) return grade;
  return async (input) => {
    try {
      return await grade(input);
    } catch (error) {
      failed(error);
      throw error;
    }
  };
}

/**
 * The model grader for a session, or undefined (the signal then grades) when it cannot be built,
 * e.g. the key variable is unset: said once per assembled bot, naming the variable, never its value.
 */
function modelGrader(
  bot: BotToAssemble,
  settings: ResolvedCorrectiveConfig,
  env: NodeJS.ProcessEnv,
  warned: Set<string>,
  observer: GraderObserver,
  languages: Readonly<Record<string, CollectionLanguage>>,
): GradeFn | undefined {
  const provider = settings.graderProvider ?? bot.config.provider;
  try {
    const client = createLlmClient(provider ?? "copilot", settings.graderModel, env, {
      ...(bot.dir ? { botDir: bot.dir } : {}),
      timeoutMs: settings.graderTimeoutMs,
      // The bot's provider's wireModel names the bot's model, not the grader's.
      useWireModel: settings.graderProvider !== undefined,
    });
    // No collection list here: each pass tells the grader its own call's scope (GradeInput).
    return createKnowledgeGrader(client, {
      timeoutMs: settings.graderTimeoutMs,
      collectionLanguages: languages,
    });
  } catch (error) {
    const message = errorMessage(error);
    observer.unavailable?.(message);
    if (!warned.has(message)) {
      warned.add(message);
      logger().warn(
        { grader: settings.grader, err: message },
        `correctiveRetrieval.grader "${settings.grader}" is unavailable (${message}); the signal grades instead`,
      );
    }
    return undefined;
  }
}

/**
 * The bot's backend behind its retrieval strategies, when it names a model and switches a
 * strategy on; otherwise the backend as it is. Strategy options without a model are said once,
 * with what happens instead, rather than silently ignored.
 */
function withStrategies(
  bot: BotToAssemble,
  backend: KnowledgeBackend,
  env: NodeJS.ProcessEnv,
  warned: Set<string>,
): KnowledgeBackend {
  const settings: RetrievalSettings = bot.config.retrieval;
  if (!strategiesActive(settings)) return backend;
  if (!bot.config.model) {
    logger().warn(
      { retrieval: settings },
      'retrieval strategies need a model (config.json "model"); the lexical engine answers instead',
    );
    return backend;
  }
  let llm: LlmClient;
  try {
    llm = createLlmClient(bot.config.provider ?? "copilot", bot.config.model, env, {
      ...(bot.dir ? { botDir: bot.dir } : {}),
      // The provider's wireModel names the bot's own model, which is the one used here.
      useWireModel: true,
    });
  } catch (error) {
    const message = errorMessage(error);
    if (!warned.has(message)) {
      warned.add(message);
      logger().warn(
        { err: message },
        `retrieval strategies are unavailable (${message}); the lexical engine answers`,
      );
    }
    return backend;
  }
  return strategicBackend(backend, {
    llm,
    settings,
    ...(settings.planning ? { planner: new Planner(llm) } : {}),
    onError: (step, error) =>
      logger().warn({ step, err: error }, `strategy ${step} failed; the lexical result stands`),
  });
}

function toolArgs(request: SearchRequest): Record<string, unknown> {
  const args: Record<string, unknown> = { query: request.query };
  if (request.collections?.length) args.collection = request.collections.join(",");
  return args;
}
