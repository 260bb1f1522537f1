// A bot's knowledge as an MCP server (docs/design.md §8): `search_knowledge`, `get_document` and
// `list_collections`, with the corrective pass run inside the search tool, so MCP-only clients
// (Claude Code, Claude Desktop, other agents) get the corrected text a Copilot session gets.
// The search goes through the same binding as the Copilot connector (assembleBot): the same
// span, the same search call (arguments, structured response, text) for the pass, and the corrective
// settings resolved per call (correctorPerCall), so the kill-switch needs no restart.
//
// Every call is independent and bounded (deadlineSignal); every failure becomes a tool error
// result with a clear text (Huginn's adapter wording for Huginn failures), never an exception
// out of a handler; a corrective pass that fails or overruns leaves the search's own text.

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { BotDefinition } from "../../bots/discovery.js";
import { resolveCorrectiveConfig } from "../../corrective/corrective-config.js";
import type { SearchCall } from "../../corrective/search-call.js";
import { DEADLINES, deadlineSignal, settleBy } from "../../deadline.js";
import { errorMessage } from "../../errors.js";
import { UnknownCollectionError } from "../../knowledge/engine.js";
import { HuginnError } from "../../knowledge/huginn.js";
import { positiveOrUndefined } from "../../limits.js";
import { type DocWithMetadata, fetchNamedDocument, renderDocument } from "../../protocol/document.js";
import {
  GET_DOCUMENT_TOOL,
  type GetDocumentArgs,
  getDocumentShape,
  LIST_COLLECTIONS_TOOL,
  SEARCH_KNOWLEDGE_TOOL,
  type SearchKnowledgeArgs,
  searchKnowledgeShape,
  toSearchRequest,
} from "../../protocol/tool-arguments.js";
import { type Logger, logger } from "../../telemetry/logger.js";
import { clipText } from "../../text-clip.js";
import type { Doc, KnowledgeBackend } from "../../types.js";
import { assembleBot } from "../assemble-bot.js";
import type { CorrectFn, CorrectResult } from "../bot-runtime.js";
import { collectionSummaries } from "./collection-summaries.js";
import { correctorPerCall } from "./corrector-per-call.js";
import { renderCollections } from "./render-collections.js";
import {
  getDocumentDescription,
  listCollectionsDescription,
  searchDescription,
  serverInstructions,
} from "./tool-descriptions.js";

/** Bound on one tool call, search and corrective pass together. */
export const DEFAULT_CALL_TIMEOUT_MS = DEADLINES.mcpToolCallMs;
export const SERVER_NAME = "second-look";
export const SERVER_VERSION = "0.1.0";
/** What a bounded step yields when the call's deadline or the client stopped it first. */
const STOPPED = Symbol("stopped");

type DocumentFetcher = (
  collection: string,
  id: string,
  options?: { signal?: AbortSignal },
) => Promise<Doc | undefined>;

export interface KnowledgeMcpServerOptions {
  /** The bot's folder, when known, is where a Copilot-backed model grader keeps its state. */
  bot: Pick<BotDefinition, "name" | "config"> & Partial<Pick<BotDefinition, "dir">>;
  /** The bot's backend (the server searches it through assembleBot). */
  backend: KnowledgeBackend;
  /** Where the corrective settings and the kill-switch are read, per call (default process.env). */
  env?: NodeJS.ProcessEnv;
  callTimeoutMs?: number;
  log?: Logger;
}

export function createKnowledgeMcpServer(options: KnowledgeMcpServerOptions): McpServer {
  const { bot, backend } = options;
  const env = options.env ?? process.env;
  const log = options.log ?? logger();
  const callTimeoutMs = positiveOrUndefined(options.callTimeoutMs) ?? DEFAULT_CALL_TIMEOUT_MS;
  const binding = assembleBot(bot, backend, env);
  const correctFor = correctorPerCall(bot, binding, env);
  const allowed = binding.backend.collections();
  const described = {
    ...(bot.config.description !== undefined ? { description: bot.config.description } : {}),
    collections: allowed,
    languages: binding.languages,
    corrective: resolveCorrectiveConfig(bot.config.correctiveRetrieval, env).enabled,
  };
  const instructions = serverInstructions(bot.config.description);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    instructions ? { instructions } : {},
  );

  server.registerTool(
    SEARCH_KNOWLEDGE_TOOL,
    { description: searchDescription(described), inputSchema: searchKnowledgeShape },
    async (args: SearchKnowledgeArgs, extra): Promise<CallToolResult> => {
      const deadline = deadlineSignal(extra.signal, callTimeoutMs);
      const started = performance.now();
      if (args.collection && !allowed.includes(args.collection)) {
        return failure(new UnknownCollectionError(args.collection, allowed).message);
      }
      const request = toSearchRequest(args);
      let call: SearchCall;
      try {
        // A backend that ignores the signal still cannot hold the call past its deadline.
        const searching = binding.backend.search(request, { signal: deadline.signal });
        const response = await settleBy(searching, deadline.signal, STOPPED);
        if (response === STOPPED) throw deadline.signal.reason;
        call = binding.renderCall(request, response);
      } catch (error) {
        const message = failureText(SEARCH_KNOWLEDGE_TOOL, error, deadline);
        log.warn({ tool: SEARCH_KNOWLEDGE_TOOL, err: message }, "mcp: search failed");
        return failure(message);
      }
      // Read now, not at start-up: the kill-switch and env defaults apply to the next call.
      const corrected = await correctWithin(correctFor(), call, args, deadline.signal, log);
      log.debug(
        {
          tool: SEARCH_KNOWLEDGE_TOOL,
          ms: Math.round(performance.now() - started),
          changed: !!corrected?.changed,
        },
        "mcp: search answered",
      );
      return success(corrected?.text ?? call.text);
    },
  );

  // Backends that take a signal (Huginn) stop their request with the call; others ignore it.
  const getDocument = binding.backend.getDocument as DocumentFetcher | undefined;
  if (getDocument) {
    server.registerTool(
      GET_DOCUMENT_TOOL,
      { description: getDocumentDescription(), inputSchema: getDocumentShape },
      async (args: GetDocumentArgs, extra): Promise<CallToolResult> => {
        const deadline = deadlineSignal(extra.signal, callTimeoutMs);
        const { collection, doc_id } = args;
        if (!allowed.includes(collection)) {
          return failure(new UnknownCollectionError(collection, allowed).message);
        }
        try {
          const fetching = fetchNamedDocument(
            (id) => getDocument(collection, id, { signal: deadline.signal }),
            doc_id,
          );
          const doc = await settleBy(fetching, deadline.signal, STOPPED);
          if (doc === STOPPED) return failure(failureText(GET_DOCUMENT_TOOL, undefined, deadline));
          if (!doc) return failure(`Document '${doc_id}' not found in collection '${collection}'.`);
          return success(renderDocument(doc as DocWithMetadata));
        } catch (error) {
          const message = failureText(GET_DOCUMENT_TOOL, error, deadline);
          log.warn({ tool: GET_DOCUMENT_TOOL, err: message }, "mcp: get_document failed");
          return failure(message);
        }
      },
    );
  }

  server.registerTool(
    LIST_COLLECTIONS_TOOL,
    { description: listCollectionsDescription() },
    async (extra): Promise<CallToolResult> => {
      const deadline = deadlineSignal(extra.signal, callTimeoutMs);
      try {
        const listing = await settleBy(
          collectionSummaries(backend, deadline.signal, bot.config),
          deadline.signal,
          STOPPED,
        );
        if (listing === STOPPED) return failure(failureText(LIST_COLLECTIONS_TOOL, undefined, deadline));
        return success(renderCollections(listing.summaries, listing.style, listing.languages));
      } catch (error) {
        const message = failureText(LIST_COLLECTIONS_TOOL, error, deadline);
        log.warn({ tool: LIST_COLLECTIONS_TOOL, err: message }, "mcp: list_collections failed");
        return failure(message);
      }
    },
  );

  return server;
}

/**
 * The corrective pass on one search call, within the call's deadline; null when it is off, fails
 * or overruns (the search's own text then stands). The arguments the SDK validated and the
 * structured response travel with the call, not in its text.
 */
async function correctWithin(
  correct: CorrectFn | undefined,
  call: SearchCall,
  args: SearchKnowledgeArgs,
  signal: AbortSignal,
  log: Logger,
): Promise<CorrectResult | null> {
  if (!correct) {
    call.toolSpan?.endAtResult();
    return null;
  }
  const request = {
    toolName: SEARCH_KNOWLEDGE_TOOL,
    toolArgs: args,
    resultText: call.text,
    signal,
    searchCall: call,
  };
  return settleBy(correct(request), signal, null).catch((error: unknown) => {
    log.warn({ err: error }, "mcp: corrective pass failed; original result kept");
    return null;
  });
}

/**
 * Huginn's failures and the allow-list refusal are already the text a model should read (the
 * adapter's wording); a stopped call says why; anything else is named as this tool's failure.
 */
function failureText(tool: string, error: unknown, deadline: ReturnType<typeof deadlineSignal>): string {
  if (deadline.expired()) return `${tool} did not finish within ${deadline.timeoutMs} ms.`;
  if (deadline.signal.aborted) return `${tool} was cancelled.`;
  if (error instanceof HuginnError || error instanceof UnknownCollectionError) return error.message;
  const message = errorMessage(error);
  return `${tool} failed: ${clipText(message, 500)}`;
}

function success(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
