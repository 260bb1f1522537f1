// The composition root: the one place a bot is assembled from its parts. Its backend is wrapped
// in the retrieval strategies when the bot has a model and turns one on; its searches run through
// the search pipeline (search-pipeline.ts: one `SearchCall` value from the search, in its
// `execute_tool search_knowledge` span, to the corrected text), and the corrective pass is
// resolved from the bot's config and the environment each time a session or a call asks for it
// (`correctorFor`), with the model grader built on `graderProvider` when the bot sets one, else
// on the bot's own provider, else through Copilot (the bot's runtime and sign-in, so a Copilot
// bot needs no second key). Each collection's document language goes to the tools'
// descriptions, the grader and the corrective pass, which reads a query in another language as
// a weak search (src/weakness.ts isLanguageMismatch). A pass's scope is its call's
// (`SearchCall.scope`, the caller's allow-list within the bot's): the grader is told those
// collections only, and every re-query searches inside them.

import type { BotDefinition } from "../bots/discovery.js";
import { botCollections } from "../bots/discovery.js";
import { type ResolvedCorrectiveConfig, resolveCorrectiveConfig } from "../corrective/corrective-config.js";
import { createKnowledgeGrader } from "../corrective/knowledge-grader.js";
import type { GradeFn } from "../corrective/llm-grade.js";
import { errorMessage } from "../errors.js";
import { renderSearchResponse } from "../knowledge-tool/render.js";
import { createLlmClient } from "../llm/create-llm-client.js";
import type { LlmClient } from "../llm/llm-client.js";
import { Planner } from "../strategies/plan/planner.js";
import {
  type RetrievalSettings,
  strategicBackend,
  strategiesActive,
} from "../strategies/strategic-backend.js";
import { logger } from "../telemetry/logger.js";
import { withToolSpan } from "../telemetry/tool-span.js";
import {
  type CollectionLanguage,
  type KnowledgeBackend,
  SEARCH_KNOWLEDGE_TOOL,
  type SearchRequest,
} from "../types.js";
import type { CorrectFn, RenderResult } from "./bot-runtime.js";
import { collectionLanguages } from "./collection-languages.js";
import {
  type Corrector,
  correctFnOf,
  type SearchCall,
  type SearchPipeline,
  searchCall,
  searchToolArgs,
} from "./search-pipeline.js";

export interface AssembledBot {
  /**
   * The bot's backend for a caller that wants hits, not a tool call (the strategies' answer
   * with citations): each search inside its own `execute_tool` span.
   */
  backend: KnowledgeBackend;
  /** What the bot's search calls run through (`searchCall`, search-pipeline.ts). */
  pipeline: SearchPipeline;
  /** A search as the one value the rest of the pipeline takes (`searchCall` on this bot). */
  search: (request: SearchRequest, scope: unknown, options?: { signal?: AbortSignal }) => Promise<SearchCall>;
  /** A search response's text alone, for a caller that corrects text (no call travels with it). */
  renderResult: RenderResult;
  /** The corrective pass as resolved now (env read now), or undefined when it is off. */
  correctorFor: () => Corrector | undefined;
  /** The corrective pass for a new session's hook, or undefined when it is off (read from env now). */
  correctFor: () => CorrectFn | undefined;
  /** The resolution `correctorFor` last used (for logs and `ask --json`). */
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
  let resolution: ResolvedCorrectiveConfig | undefined;
  const languages = collectionLanguages(bot.config, rawBackend);
  const anyLanguage = Object.values(languages).some((l) => l.tags.length > 0);
  const botList = botCollections(bot.config);
  const pipeline: SearchPipeline = {
    backend,
    botList,
    corrective: { config: bot.config.correctiveRetrieval, env },
  };

  const correctorFor = (): Corrector | undefined => {
    resolution = resolveCorrectiveConfig(bot.config.correctiveRetrieval, env);
    if (!resolution.enabled) return undefined;
    const settings = resolution;
    const grade =
      settings.grader === "signal"
        ? undefined
        : observed(modelGrader(bot, settings, env, warned, observer, languages), observer);
    return { backend, settings, ...(grade ? { grade } : {}), ...(anyLanguage ? { languages } : {}) };
  };

  return {
    backend: tracedBackend(backend),
    pipeline,
    search: (request, scope, options) => searchCall(pipeline, request, scope, options),
    renderResult: (response, brief) => renderSearchResponse(response, { brief }),
    correctorFor,
    correctFor: () => {
      const corrector = correctorFor();
      return corrector && correctFnOf(corrector, botList);
    },
    lastResolution: () => resolution,
    languages,
  };
}

/** The backend with each search inside its own `execute_tool` span, ended when it settles. */
function tracedBackend(backend: KnowledgeBackend): KnowledgeBackend {
  const traced: KnowledgeBackend = {
    collections: () => backend.collections(),
    search: (request, options) =>
      withToolSpan(SEARCH_KNOWLEDGE_TOOL, searchToolArgs(request), () => backend.search(request, options)),
  };
  if (backend.getDocument) traced.getDocument = backend.getDocument.bind(backend);
  return traced;
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
