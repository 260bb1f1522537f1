// The bot's tools as the Copilot runtime sees them: `search_knowledge` (Huginn's parameters, so a
// bot can switch between the embedded engine and a Huginn server without re-prompting) and
// `get_document`. Handlers never throw: the runtime would replace a thrown message with a
// generic "Tool execution failed", so failures are returned as failure results with clear text.

import { defineTool, type Tool, type ToolInvocation, type ToolResultObject } from "@github/copilot-sdk";
import { type Context, context } from "@opentelemetry/api";
import type * as z from "zod";
import type { SearchCall } from "../../corrective/search-call.js";
import { errorMessage } from "../../errors.js";
import { fetchNamedDocument, renderDocument as renderDocumentText } from "../../knowledge-tool/document.js";
import {
  anyLanguageKnown,
  collectionsWithLanguages,
  SEARCH_IN_DOCUMENT_LANGUAGE,
} from "../../knowledge-tool/language-names.js";
import {
  GET_DOCUMENT_TOOL,
  getDocumentArguments,
  SEARCH_KNOWLEDGE_TOOL,
  searchKnowledgeArguments,
  toSearchRequest,
} from "../../knowledge-tool/tool-arguments.js";
import type { CollectionLanguage, KnowledgeBackend } from "../../types.js";
import type { RenderDocument, RenderResult, RunSearch } from "../bot-runtime.js";

export { GET_DOCUMENT_TOOL, SEARCH_KNOWLEDGE_TOOL };

const searchKnowledgeParameters = searchKnowledgeArguments;
const getDocumentParameters = getDocumentArguments;

export interface KnowledgeToolsOptions {
  backend: KnowledgeBackend;
  renderResult: RenderResult;
  /**
   * Runs a search as one value (arguments, scope, structured response, text, span) instead of
   * `backend.search` and a text: then `renderResult` is not used, and each call is handed to
   * `onSearchCall` with the model's raw arguments, for the corrective hook to take whole.
   */
  search?: RunSearch;
  onSearchCall?: (rawArgs: unknown, call: SearchCall) => void;
  renderDocument?: RenderDocument;
  /** The current question's signal: a stopped question stops its searches too. */
  turnSignal?: () => AbortSignal | undefined;
  /**
   * The current question's span context. The runtime calls handlers from its own connection,
   * outside the question's async context, so the handler re-enters it: tool spans then nest
   * under the question's span.
   */
  turnTraceContext?: () => Context | undefined;
  /** Each collection's document language, named in the search tool's description. */
  collectionLanguages?: Readonly<Record<string, CollectionLanguage>>;
}

function failure(text: string): ToolResultObject {
  return { textResultForLlm: text, resultType: "failure", error: text };
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
}

function errorText(error: unknown): string {
  return errorMessage(error);
}

/** The signals a handler's work should stop on, or a reason it should not start at all. */
function handlerSignal(
  invocation: ToolInvocation,
  turnSignal: (() => AbortSignal | undefined) | undefined,
): { signal?: AbortSignal; stopped: boolean } {
  const signals = [invocation.signal, turnSignal?.()].filter((s): s is AbortSignal => s !== undefined);
  if (signals.some((s) => s.aborted)) return { stopped: true };
  if (signals.length === 0) return { stopped: false };
  return { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals), stopped: false };
}

const STOPPED_TEXT = "The question was stopped before this tool ran.";

function unavailable(collection: string, allowed: readonly string[]): string {
  return `Collection '${collection}' is not available. Available: ${allowed.join(", ")}`;
}

export function createKnowledgeTools(options: KnowledgeToolsOptions): Tool<unknown>[] {
  const { backend, renderResult } = options;
  const renderDocument = options.renderDocument ?? renderDocumentText;
  const collections = backend.collections();

  const search = defineTool<unknown>(SEARCH_KNOWLEDGE_TOOL, {
    description: [
      "Search the bot's document collections.",
      collections.length > 0
        ? `Collections: ${collectionsWithLanguages(collections, options.collectionLanguages)}.`
        : "",
      anyLanguageKnown(collections, options.collectionLanguages) ? SEARCH_IN_DOCUMENT_LANGUAGE : "",
      "Use brief=true for an initial overview (titles, URLs and short snippets), then",
      "get_document(collection, doc_id) for the full content of specific results.",
      "Each result names its collection and doc_id. Always include a result's URL when citing it.",
    ]
      .filter((line) => line !== "")
      .join(" "),
    parameters: searchKnowledgeParameters,
    skipPermission: true,
    handler: async (rawArgs: unknown, invocation: ToolInvocation) => {
      const parsed = searchKnowledgeParameters.safeParse(rawArgs);
      if (!parsed.success) return failure(`Invalid search_knowledge arguments: ${issuesText(parsed.error)}`);
      const args = parsed.data;
      if (args.collection && !collections.includes(args.collection)) {
        return failure(unavailable(args.collection, collections));
      }
      const request = toSearchRequest(args);
      const { signal, stopped } = handlerSignal(invocation, options.turnSignal);
      if (stopped) return failure(STOPPED_TEXT);
      try {
        const turn = options.turnTraceContext?.() ?? context.active();
        const searchOptions = signal ? { signal } : undefined;
        if (options.search) {
          // The tool's own list is the call's scope: the hook's pass stays inside it.
          const run = options.search;
          const call = await context.with(turn, () => run(request, collections, searchOptions));
          options.onSearchCall?.(rawArgs, call);
          return call.text;
        }
        const response = await context.with(turn, () => backend.search(request, searchOptions));
        return renderResult(response, args.brief ?? false);
      } catch (error) {
        return failure(`search_knowledge failed: ${errorText(error)}`);
      }
    },
  });

  const tools: Tool<unknown>[] = [search];
  const getDocument = backend.getDocument?.bind(backend);
  if (getDocument) {
    tools.push(
      defineTool<unknown>(GET_DOCUMENT_TOOL, {
        description: "Fetch the full text of one document found by search_knowledge.",
        parameters: getDocumentParameters,
        skipPermission: true,
        handler: async (rawArgs: unknown, invocation: ToolInvocation) => {
          if (handlerSignal(invocation, options.turnSignal).stopped) return failure(STOPPED_TEXT);
          const parsed = getDocumentParameters.safeParse(rawArgs);
          if (!parsed.success) return failure(`Invalid get_document arguments: ${issuesText(parsed.error)}`);
          const { collection, doc_id } = parsed.data;
          if (!collections.includes(collection)) return failure(unavailable(collection, collections));
          try {
            const doc = await fetchNamedDocument((id) => getDocument(collection, id), doc_id);
            if (!doc) return failure(`Document '${doc_id}' not found in collection '${collection}'.`);
            return renderDocument(doc);
          } catch (error) {
            return failure(`get_document failed: ${errorText(error)}`);
          }
        },
      }),
    );
  }
  return tools;
}
