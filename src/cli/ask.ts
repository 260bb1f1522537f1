// `second-look ask <bot> <question> [--trace] [--json]`: a full session with the bot's model; for
// a bot with no model configured, the corrected search results for the question (the offline
// main job: no server, no API key).
import { loadBot } from "../bots/discovery.js";
import type { AskResult } from "../connectors/bot-runtime.js";
import { hasModel, openBotRuntime } from "../connectors/open-bot-runtime.js";
import { captureSpans, renderSpanTree, type SpanCapture } from "../telemetry/span-tree.js";
import { CliError } from "./cli-error.js";
import { progressReporter } from "./progress.js";
import { type SearchJson, searchAsTheModelWould } from "./search.js";

/** The stable `--json` shape: `answer` is null when the bot has no model (then `search` is set). */
export interface AskJson {
  question: string;
  answer: string | null;
  toolCalls: AskResult["toolCalls"];
  search: SearchJson | null;
}

export async function runAsk(
  botRef: string,
  question: string,
  options: { trace: boolean; json: boolean },
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  if (!question.trim()) throw new CliError("the question is empty");
  const bot = await loadBot(botRef, { quiet: options.json });
  const spans: SpanCapture | undefined = options.trace ? await captureSpans() : undefined;
  try {
    const result = hasModel(bot)
      ? await askTheModel(bot, question, !options.json)
      : await answerOffline(bot, question, !options.json);
    if (options.json) io.stdout.write(`${JSON.stringify(result)}\n`);
    else io.stdout.write(`${result.answer ?? result.search?.final ?? ""}\n`);
    return 0;
  } finally {
    if (spans) {
      io.stderr.write(renderSpanTree(spans.spans()));
      await spans.shutdown();
    }
  }
}

async function answerOffline(
  bot: Parameters<typeof searchAsTheModelWould>[0],
  question: string,
  progress: boolean,
): Promise<AskJson> {
  const search = await searchAsTheModelWould(bot, { query: question }, { correct: true, progress });
  return { question, answer: null, toolCalls: [], search };
}

async function askTheModel(
  bot: Parameters<typeof openBotRuntime>[0],
  question: string,
  progress: boolean,
): Promise<AskJson> {
  const reporter = progressReporter(progress);
  const { runtime } = await openBotRuntime(bot, { onProgress: reporter.update });
  reporter.stop();
  try {
    const result = await runtime.ask(question, { conversationId: "cli" });
    return { question, answer: result.answer, toolCalls: result.toolCalls, search: null };
  } finally {
    await runtime.close();
  }
}
