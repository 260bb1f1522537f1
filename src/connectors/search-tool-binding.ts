// How a bot's `search_knowledge` tool is wired to the corrective pass, whatever the connector:
// searches run inside an `execute_tool search_knowledge` span, each rendered text remembers the
// structured response and span it came from (so the signal grader reads the response, not the
// text, and the corrective spans become the tool span's children), and the corrective pass is
// resolved from the bot's config and the environment each time a session asks for it.
import type { Context } from "@opentelemetry/api";
import { type ResolvedCorrectiveConfig, resolveCorrectiveConfig } from "../bots/corrective-config.js";
import type { BotDefinition } from "../bots/discovery.js";
import { botCollections } from "../bots/discovery.js";
import { correctToolResult } from "../corrective/correct-tool-result.js";
import { renderSearchResponse } from "../protocol/render.js";
import { logger } from "../telemetry/logger.js";
import { withToolSpan } from "../telemetry/tool-span.js";
import type { KnowledgeBackend, SearchRequest, SearchResponse } from "../types.js";
import type { CorrectFn, RenderResult } from "./bot-runtime.js";

/** Rendered texts remembered for the hook; a hook runs right after its tool, so few are needed. */
const REMEMBERED_RESULTS = 256;

interface Rendered {
  response: SearchResponse;
  traceContext?: Context;
}

export interface SearchToolBinding {
  /** The backend the tools search: the bot's, each search inside an `execute_tool` span. */
  backend: KnowledgeBackend;
  renderResult: RenderResult;
  /** The corrective pass for a new session, or undefined when it is off (read from env now). */
  correctFor: () => CorrectFn | undefined;
  /** The resolution `correctFor` last used (for logs and `ask --json`). */
  lastResolution: () => ResolvedCorrectiveConfig | undefined;
}

export function bindSearchTool(
  bot: Pick<BotDefinition, "config">,
  backend: KnowledgeBackend,
  env: NodeJS.ProcessEnv = process.env,
): SearchToolBinding {
  warnAboutInactiveOptions(bot);
  const spans = new WeakMap<SearchResponse, Context>();
  const rendered = new Map<string, Rendered>();
  let resolution: ResolvedCorrectiveConfig | undefined;

  const traced: KnowledgeBackend = {
    collections: () => backend.collections(),
    search: (request: SearchRequest, options?: { signal?: AbortSignal }) =>
      withToolSpan("search_knowledge", toolArgs(request), async (_span, toolContext) => {
        const response = await backend.search(request, options);
        spans.set(response, toolContext);
        return response;
      }),
  };
  if (backend.getDocument) traced.getDocument = backend.getDocument.bind(backend);

  const renderResult: RenderResult = (response, brief) => {
    const text = renderSearchResponse(response, { brief });
    if (rendered.size >= REMEMBERED_RESULTS) rendered.delete(rendered.keys().next().value!);
    const traceContext = spans.get(response);
    rendered.set(text, traceContext ? { response, traceContext } : { response });
    return text;
  };

  const correctFor = (): CorrectFn | undefined => {
    resolution = resolveCorrectiveConfig(bot.config.correctiveRetrieval, env);
    if (!resolution.enabled) return undefined;
    const settings = resolution;
    return async (call) => {
      // Only a text this process rendered has a structured twin; an external MCP tool's does not.
      const twin = rendered.get(call.resultText);
      if (twin) rendered.delete(call.resultText);
      const corrected = await correctToolResult(
        {
          toolName: call.toolName,
          toolArgs: call.toolArgs,
          resultText: call.resultText,
          signal: call.signal,
          ...(twin ? { response: twin.response } : {}),
        },
        {
          // Re-queries go to the raw backend: they are part of this tool call, not new ones.
          backend,
          allowedCollections: botCollections(bot.config),
          budget: settings.retryBudget,
          grader: settings.grader,
          graderTimeoutMs: settings.graderTimeoutMs,
          ...(twin?.traceContext ? { traceContext: twin.traceContext } : {}),
        },
      );
      return (
        corrected && {
          text: corrected.text,
          changed: corrected.outcome.changed,
          metadata: corrected.outcome.metadata,
        }
      );
    };
  };

  return { backend: traced, renderResult, correctFor, lastResolution: () => resolution };
}

/**
 * Options the config schema accepts for features that are not in this build yet: said once,
 * with what happens instead, rather than silently ignored.
 */
function warnAboutInactiveOptions(bot: Pick<BotDefinition, "config">): void {
  const inactive: string[] = [];
  const grader = bot.config.correctiveRetrieval?.grader;
  if (grader === "haiku" || grader === "auto") {
    inactive.push(
      `correctiveRetrieval.grader "${grader}" (the LLM grader is not in this build: the signal grades)`,
    );
  }
  const retrieval = bot.config.retrieval;
  if (retrieval.rerankStrategy !== "lexical") {
    inactive.push(`retrieval.rerankStrategy "${retrieval.rerankStrategy}" (the lexical rerank runs)`);
  }
  if (retrieval.planning) inactive.push("retrieval.planning (queries are not decomposed)");
  if (retrieval.answerSpans) inactive.push("retrieval.answerSpans (hits carry no quotes)");
  if (inactive.length)
    logger().warn({ options: inactive }, `options not active in this build: ${inactive.join("; ")}`);
}

function toolArgs(request: SearchRequest): Record<string, unknown> {
  const args: Record<string, unknown> = { query: request.query };
  if (request.collections?.length) args.collection = request.collections.join(",");
  return args;
}
