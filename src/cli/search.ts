// `second-look search <bot> <query>`: one knowledge search as a bot's model would run it, with
// the text the model would see.

import { resolveBot } from "../bots/bot-resolver.js";
import type { BotDefinition } from "../bots/discovery.js";
import { assembleBot } from "../connectors/assemble-bot.js";
import { openBotBackend } from "../connectors/open-bot-backend.js";
import { correctCall, searchCall } from "../connectors/search-pipeline.js";
import { correctiveOffNote } from "../corrective/corrective-config.js";
import { DEADLINES } from "../deadline.js";
import { refreshBudgetForAnswers } from "../knowledge/index/ingest-limits.js";
import type { CorrectiveOutcome, KnowledgeBackend, SearchRequest, SearchResponse } from "../types.js";
import { CliError } from "./cli-error.js";
import { wholeOption } from "./cli-options.js";
import { progressReporter } from "./progress.js";
import { humanText } from "./terminal-text.js";

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
  io: { stdout: NodeJS.WritableStream; stderr?: NodeJS.WritableStream },
): Promise<number> {
  if (!query.trim()) throw new CliError("the query is empty");
  const request: SearchRequest = { query };
  if (options.collection?.length) request.collections = options.collection;
  if (options.limit !== undefined) request.limit = wholeOption(options.limit, "--limit", 0, 1, 100);
  if (options.brief) request.brief = true;
  const bot = await resolveBot(botRef, { quiet: options.json });
  // First, before any index work: the owner learns the headline feature is off, and how to turn it on.
  const off = correctiveOffNote(bot);
  if (off && options.correct) io.stderr?.write(`${off}\n`);
  const result = await searchAsTheModelWould(bot, request, {
    correct: options.correct,
    progress: !options.json,
  });
  io.stdout.write(options.json ? `${JSON.stringify(result)}\n` : humanText(`${result.final}\n`, io.stdout));
  return 0;
}

/**
 * The search a bot's model would run, through the same assembled tools as a live session: the
 * rendered text, and the text after the bot's corrective pass (kill-switch and env read now).
 */
export async function searchAsTheModelWould(
  bot: BotDefinition,
  request: SearchRequest,
  options: { correct: boolean; progress: boolean },
): Promise<SearchJson> {
  const progress = progressReporter(options.progress);
  const opened = await openBotBackend(bot, {
    onProgress: progress.update,
    refreshBudgetMs: refreshBudgetForAnswers(bot.config.knowledge.ingest),
  });
  progress.stop();
  try {
    return await searchOn(bot, opened.backend, request, options.correct);
  } finally {
    await opened.close();
  }
}

async function searchOn(
  bot: BotDefinition,
  backend: KnowledgeBackend,
  request: SearchRequest,
  correct: boolean,
): Promise<SearchJson> {
  const assembled = assembleBot(bot, backend);
  // The caller may search whatever the bot's tools offer, as over stdio.
  const call = await searchCall(assembled.pipeline, request, assembled.backend.collections());
  const original = call.text;
  const response = call.response!;
  const result: SearchJson = { query: request.query, original, final: original, response, outcome: null };
  const corrector = correct ? assembled.correctorFor() : undefined;
  const { correction } = await correctCall(corrector, call, {
    toolName: "search_knowledge",
    signal: AbortSignal.timeout(DEADLINES.offlineCorrectivePassMs),
  });
  if (correction) {
    result.final = correction.text;
    result.outcome = { changed: correction.changed, text: correction.text, metadata: correction.metadata };
  }
  return result;
}
