// `second-look search <bot> <query>`: one knowledge search as a bot's model would run it, with
// the text the model would see.
import { resolveCorrectiveConfig } from "../bots/corrective-config.js";
import { botCollections, loadBot } from "../bots/discovery.js";
import { correctToolResult } from "../corrective/correct-tool-result.js";
import { openBotBackend } from "../knowledge/open-bot-backend.js";
import { renderSearchResponse } from "../protocol/render.js";
import type { CorrectiveOutcome, SearchRequest, SearchResponse } from "../types.js";
import { CliError } from "./cli-error.js";
import { progressReporter } from "./progress.js";

export interface SearchOptions {
  collection?: string[];
  limit?: string;
  brief?: boolean;
  correct: boolean;
  json: boolean;
}

/** The stable `--json` shape. */
export interface SearchJson {
  query: string;
  original: string;
  final: string;
  response: SearchResponse;
  outcome: CorrectiveOutcome | null;
}

export async function runSearch(
  botRef: string,
  query: string,
  options: SearchOptions,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  if (!query.trim()) throw new CliError("the query is empty");
  const request: SearchRequest = { query };
  if (options.collection?.length) request.collections = options.collection;
  if (options.limit !== undefined) request.limit = parseLimit(options.limit);
  if (options.brief) request.brief = true;

  const bot = await loadBot(botRef, { quiet: options.json });
  const progress = progressReporter(!options.json);
  const { backend } = await openBotBackend(bot, { onProgress: progress.update });
  progress.stop();

  const response = await backend.search(request);
  const original = renderSearchResponse(response, { brief: request.brief === true });
  const result: SearchJson = { query, original, final: original, response, outcome: null };
  // The same pass a bot's hook runs, with the same resolution (kill-switch first), read now.
  const corrective = resolveCorrectiveConfig(bot.config.correctiveRetrieval);
  if (options.correct && corrective.enabled) {
    const corrected = await correctToolResult(
      {
        toolName: "search_knowledge",
        toolArgs: toolArgsOf(request),
        resultText: original,
        response,
        question: query,
      },
      {
        backend,
        allowedCollections: botCollections(bot.config),
        budget: corrective.retryBudget,
        grader: corrective.grader,
        graderTimeoutMs: corrective.graderTimeoutMs,
      },
    );
    if (corrected) {
      result.final = corrected.text;
      result.outcome = corrected.outcome;
    }
  }
  io.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${result.final}\n`);
  return 0;
}

/** The request as the model's `search_knowledge` arguments (Huginn's parameter names). */
function toolArgsOf(request: SearchRequest): Record<string, unknown> {
  const args: Record<string, unknown> = { query: request.query };
  if (request.collections?.length) args.collection = request.collections;
  if (request.limit !== undefined) args.limit = request.limit;
  if (request.brief) args.brief = true;
  return args;
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw new CliError(`--limit must be a whole number from 1 to 100, got "${value}"`);
  }
  return n;
}
