// A bot's knowledge as an MCP server (docs/design.md §8): `search_knowledge`, `get_document` and
// `list_collections`, with the corrective pass run inside the search tool, so MCP-only clients
// (Claude Code, Claude Desktop, other agents) get the corrected text a Copilot session gets.
// The search goes through the same search pipeline as the Copilot connector (search-pipeline.ts):
// one `SearchCall` value from the search to the text the model reads — the same span, arguments,
// scope, structured response and text for the pass — and the corrective settings resolved per
// call (correctorPerCall), so the kill-switch needs no restart.
//
// Every call is independent and bounded (deadlineSignal); every failure becomes a tool error
// result with a clear text (Huginn's adapter wording for Huginn failures), never an exception
// out of a handler; a corrective pass that fails or overruns leaves the search's own text.

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { UnknownCollectionError } from "../../backends/embedded/embedded-engine.js";
import { HuginnError } from "../../backends/huginn/huginn-backend.js";
import type { BotDefinition } from "../../bots/discovery.js";
import { resolveCorrectiveConfig } from "../../corrective/corrective-config.js";
import { DEADLINES, deadlineSignal, settleBy } from "../../deadline.js";
import { errorMessage } from "../../errors.js";
import { type DocWithMetadata, fetchNamedDocument, renderDocument } from "../../knowledge-tool/document.js";
import {
  GET_DOCUMENT_TOOL,
  type GetDocumentArgs,
  getDocumentArguments,
  LIST_COLLECTIONS_TOOL,
  MAX_ARGUMENT_ELEMENTS,
  SEARCH_KNOWLEDGE_TOOL,
  type SearchKnowledgeArgs,
  searchKnowledgeArguments,
  toSearchRequest,
} from "../../knowledge-tool/tool-arguments.js";
import {
  type ListCollectionsOutput,
  listCollectionsOutputSchema,
  searchKnowledgeOutput,
  searchKnowledgeOutputSchema,
} from "../../knowledge-tool/tool-output.js";
import { positiveOrUndefined } from "../../limits.js";
import { type Logger, logger } from "../../telemetry/logger.js";
import { clipText } from "../../text-clip.js";
import type { Doc, KnowledgeBackend } from "../../types.js";
import { assembleBot } from "../assemble-bot.js";
import { correctCall, modelText, searchCall } from "../search-pipeline.js";
import { type CallLimiter, callLimiter, ServerBusyError } from "./call-limiter.js";
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
  /** Shared with other servers of the same process (default: one of its own). */
  limiter?: CallLimiter;
  log?: Logger;
}

/** A subset of the bot's collections one client may use (an HTTP token's allow-list). */
export interface ToolScope {
  collections?: readonly string[];
}

export interface KnowledgeTools {
  /** A server over the bot's tools, limited to `scope` (a cheap object: one per HTTP request). */
  newServer(scope?: ToolScope): McpServer;
  /** Every collection the bot may search. */
  collections: readonly string[];
  /** Shared by every server made here: at most so many calls run at once, the rest wait in turn. */
  limiter: CallLimiter;
}

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** What every tool call of one bot's server reads: assembled once per bot by knowledgeTools. */
interface ToolsContext {
  bot: KnowledgeMcpServerOptions["bot"];
  backend: KnowledgeBackend;
  assembled: ReturnType<typeof assembleBot>;
  correctorFor: ReturnType<typeof correctorPerCall>;
  /** Every collection the bot may search. */
  all: readonly string[];
  log: Logger;
}

/** The bot's tools, assembled once; `newServer` registers them on as many servers as needed. */
export function knowledgeTools(options: KnowledgeMcpServerOptions): KnowledgeTools {
  const { bot, backend } = options;
  const env = options.env ?? process.env;
  const log = options.log ?? logger();
  const callTimeoutMs = positiveOrUndefined(options.callTimeoutMs) ?? DEFAULT_CALL_TIMEOUT_MS;
  const assembled = assembleBot(bot, backend, env);
  const correctorFor = correctorPerCall(bot, assembled, env);
  const all = assembled.backend.collections();
  const limiter = options.limiter ?? callLimiter();
  const instructions = serverInstructions(bot.config.description);
  // One for every server made here: a server builds its own (a new Ajv) unless given one, which
  // costs more than the rest of a server made per HTTP request.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  // Backends that take a signal (Huginn) stop their request with the call; others ignore it.
  const getDocument = assembled.backend.getDocument as DocumentFetcher | undefined;
  const ctx: ToolsContext = { bot, backend, assembled, correctorFor, all, log };

  /** Waits for a slot (bounded by the call's deadline), then runs the call's own steps. */
  const limited = async (
    tool: string,
    deadline: ReturnType<typeof deadlineSignal>,
    call: () => Promise<CallToolResult>,
  ): Promise<CallToolResult> => {
    try {
      return await limiter.run(call, deadline.signal);
    } catch (error) {
      const message = failureText(tool, error, deadline);
      log.warn({ tool, err: message }, `mcp: ${tool} not run`);
      return failure(message);
    }
  };

  const newServer = (scope: ToolScope = {}): McpServer => {
    const allowed = scope.collections ? all.filter((name) => scope.collections!.includes(name)) : all;
    const server = new McpServer(
      { name: SERVER_NAME, version: SERVER_VERSION },
      {
        jsonSchemaValidator,
        // Counted (and refused) before the schema runs: a call's work is bounded by this, not by
        // how many keys its 1 MiB of JSON can hold (the unknown-keys message names only a few).
        maxToolInputElements: MAX_ARGUMENT_ELEMENTS,
        ...(instructions ? { instructions } : {}),
      },
    );
    const described = {
      ...(bot.config.description !== undefined ? { description: bot.config.description } : {}),
      collections: allowed,
      languages: assembled.languages,
      corrective: resolveCorrectiveConfig(bot.config.correctiveRetrieval, env).enabled,
    };
    server.registerTool(
      SEARCH_KNOWLEDGE_TOOL,
      {
        title: "Search the knowledge base",
        description: searchDescription(described),
        inputSchema: searchKnowledgeArguments,
        outputSchema: searchKnowledgeOutputSchema,
        annotations: READ_ONLY,
      },
      (args: SearchKnowledgeArgs, extra) => {
        const deadline = deadlineSignal(extra.signal, callTimeoutMs);
        return limited(SEARCH_KNOWLEDGE_TOOL, deadline, () => searchTool(ctx, args, allowed, deadline));
      },
    );
    if (getDocument) {
      server.registerTool(
        GET_DOCUMENT_TOOL,
        {
          title: "Fetch a document",
          description: getDocumentDescription(),
          inputSchema: getDocumentArguments,
          annotations: READ_ONLY,
        },
        (args: GetDocumentArgs, extra) => {
          const deadline = deadlineSignal(extra.signal, callTimeoutMs);
          return limited(GET_DOCUMENT_TOOL, deadline, () =>
            getDocumentTool(ctx, getDocument, args, allowed, deadline),
          );
        },
      );
    }
    server.registerTool(
      LIST_COLLECTIONS_TOOL,
      {
        title: "List the collections",
        description: listCollectionsDescription(),
        outputSchema: listCollectionsOutputSchema,
        annotations: READ_ONLY,
      },
      (extra) => {
        const deadline = deadlineSignal(extra.signal, callTimeoutMs);
        return limited(LIST_COLLECTIONS_TOOL, deadline, () => listCollectionsTool(ctx, allowed, deadline));
      },
    );
    return server;
  };

  return { newServer, collections: all, limiter };
}

async function searchTool(
  ctx: ToolsContext,

  args: SearchKnowledgeArgs,
  allowed: readonly string[],
  deadline: ReturnType<typeof deadlineSignal>,
): Promise<CallToolResult> {
  const started = performance.now();
  if (args.collection && !allowed.includes(args.collection)) {
    return failure(new UnknownCollectionError(args.collection, [...allowed]).message);
  }
  const scoped = allowed.length < ctx.all.length;
  const request = toSearchRequest(args);
  // A client limited to some collections searches those, never the bot's others; so does its
  // corrective re-query, which takes its collections from this request (the search call's args).
  if (!request.collections && scoped) request.collections = [...allowed];
  const searched = request.collections ?? ctx.all;
  // A backend that ignores the signal still cannot hold the call past its deadline. The call
  // carries on whole: arguments (the request, scoped as searched), the caller's allow-list, text
  // and structured response together, never recovered from the text.
  const call = await settleBy(
    searchCall(ctx.assembled.pipeline, request, allowed, { signal: deadline.signal }),
    deadline.signal,
    STOPPED,
  ).catch((error: unknown) => ({ failed: error }));
  if (call === STOPPED || "failed" in call) {
    const error = call === STOPPED ? deadline.signal.reason : call.failed;
    const message = failureText(SEARCH_KNOWLEDGE_TOOL, error, deadline);
    ctx.log.warn({ tool: SEARCH_KNOWLEDGE_TOOL, err: message }, "mcp: search failed");
    return failure(message);
  }
  // Read now, not at start-up: the kill-switch and env defaults apply to the next call. Without
  // a pass the call's span ends at its result and the call comes back as it was.
  const corrector = ctx.correctorFor();
  const corrected = await settleBy(
    correctCall(corrector, call, { toolName: SEARCH_KNOWLEDGE_TOOL, signal: deadline.signal }),
    deadline.signal,
    call,
  ).catch((error: unknown) => {
    ctx.log.warn({ err: error }, "mcp: corrective pass failed; original result kept");
    return call;
  });
  const { correction } = corrected;
  if (corrector) {
    ctx.log.debug(
      {
        tool: SEARCH_KNOWLEDGE_TOOL,
        ms: Math.round(performance.now() - started),
        changed: !!correction?.changed,
      },
      "mcp: search answered",
    );
  }
  const pass = correction
    ? {
        changed: correction.changed,
        ...correction.metadata,
        ...(correction.added ? { added: correction.added } : {}),
      }
    : null;
  // The collections the reply's text draws on: the search's, and every one a pass re-queried.
  const drawnOn = corrector
    ? [...new Set([...searched, ...(pass?.collectionsTried.flat() ?? [])])].filter((c) => allowed.includes(c))
    : searched;
  const hits = call.response?.results ?? [];
  return success(modelText(corrected), searchKnowledgeOutput(args.query, drawnOn, hits, pass));
}

async function getDocumentTool(
  ctx: ToolsContext,

  fetch: DocumentFetcher,
  args: GetDocumentArgs,
  allowed: readonly string[],
  deadline: ReturnType<typeof deadlineSignal>,
): Promise<CallToolResult> {
  const { collection, doc_id } = args;
  if (!allowed.includes(collection)) {
    return failure(new UnknownCollectionError(collection, [...allowed]).message);
  }
  try {
    const fetching = fetchNamedDocument((id) => fetch(collection, id, { signal: deadline.signal }), doc_id);
    const doc = await settleBy(fetching, deadline.signal, STOPPED);
    if (doc === STOPPED) return failure(failureText(GET_DOCUMENT_TOOL, undefined, deadline));
    if (!doc) return failure(`Document '${doc_id}' not found in collection '${collection}'.`);
    return success(renderDocument(doc as DocWithMetadata));
  } catch (error) {
    const message = failureText(GET_DOCUMENT_TOOL, error, deadline);
    ctx.log.warn({ tool: GET_DOCUMENT_TOOL, err: message }, "mcp: get_document failed");
    return failure(message);
  }
}

async function listCollectionsTool(
  ctx: ToolsContext,

  allowed: readonly string[],
  deadline: ReturnType<typeof deadlineSignal>,
): Promise<CallToolResult> {
  try {
    const listing = await settleBy(
      collectionSummaries(ctx.backend, deadline.signal, ctx.bot.config),
      deadline.signal,
      STOPPED,
    );
    if (listing === STOPPED) return failure(failureText(LIST_COLLECTIONS_TOOL, undefined, deadline));
    const summaries = listing.summaries.filter((summary) => allowed.includes(summary.name));
    const structured: ListCollectionsOutput = {
      collections: summaries.map((summary) => ({
        name: summary.name,
        documents: summary.documents ?? null,
        language: listing.languages[summary.name]?.name ?? null,
      })),
    };
    return success(renderCollections(summaries, listing.style, listing.languages), structured);
  } catch (error) {
    const message = failureText(LIST_COLLECTIONS_TOOL, error, deadline);
    ctx.log.warn({ tool: LIST_COLLECTIONS_TOOL, err: message }, "mcp: list_collections failed");
    return failure(message);
  }
}

export function createKnowledgeMcpServer(options: KnowledgeMcpServerOptions): McpServer {
  return knowledgeTools(options).newServer();
}

/**
 * Huginn's failures and the allow-list refusal are already the text a model should read (the
 * adapter's wording); a stopped call says why; anything else is named as this tool's failure.
 */
function failureText(tool: string, error: unknown, deadline: ReturnType<typeof deadlineSignal>): string {
  if (deadline.expired()) return `${tool} did not finish within ${deadline.timeoutMs} ms.`;
  if (deadline.signal.aborted) return `${tool} was cancelled.`;
  if (
    error instanceof HuginnError ||
    error instanceof UnknownCollectionError ||
    error instanceof ServerBusyError
  ) {
    return error.message;
  }
  const message = errorMessage(error);
  return `${tool} failed: ${clipText(message, 500)}`;
}

function success(text: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}) };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
