// `second-look ask <bot> <question> [--trace] [--json]`: a full session with the bot's model; for
// a bot with no model configured, the corrected search results for the question (the offline
// main job: no server, no API key).
import { resolveBot } from "../bots/bot-resolver.js";
import type { BotDefinition } from "../bots/discovery.js";
import { assembleBot } from "../connectors/assemble-bot.js";
import type { AskResult } from "../connectors/bot-runtime.js";
import { openBotBackend } from "../connectors/open-bot-backend.js";
import { hasModel, openBotRuntime } from "../connectors/open-bot-runtime.js";
import { refreshBudgetForAnswers } from "../knowledge/index/ingest-limits.js";
import { renderPageRange } from "../knowledge-tool/page-range.js";
import { hasVisibleText } from "../knowledge-tool/untrusted-text.js";
import { createLlmClient } from "../llm/create-llm-client.js";
import { checkProviderReachable } from "../llm/provider-reachability.js";
import { answerWithCitations, type CitedAnswer } from "../strategies/answer/cited-answer.js";
import { zeroUsage } from "../strategies/select/usage.js";
import { renderSpanTree } from "../telemetry/span-tree.js";
import { endOpenToolSpans } from "../telemetry/tool-span.js";
import { CliError } from "./cli-error.js";
import { progressReporter } from "./progress.js";
import { type SearchJson, searchAsTheModelWould } from "./search.js";
import { humanText } from "./terminal-text.js";
import { withTracing } from "./tracing.js";

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
  options: { trace: boolean; json: boolean; answer?: boolean },
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  if (!hasVisibleText(question)) throw new CliError("the question is empty");
  const bot = await resolveBot(botRef, { quiet: options.json });
  if (hasModel(bot)) await ensureModelReachable(bot);
  return withTracing({ keepSpans: options.trace }, async (spans) => {
    try {
      if (options.answer) {
        const cited = await answerWithQuotes(bot, question, !options.json);
        io.stdout.write(options.json ? `${JSON.stringify(cited)}\n` : humanText(citedText(cited), io.stdout));
        return 0;
      }
      const result = hasModel(bot)
        ? await askTheModel(bot, question, !options.json)
        : await answerOffline(bot, question, !options.json);
      if (options.json) io.stdout.write(`${JSON.stringify(result)}\n`);
      else io.stdout.write(humanText(`${result.answer ?? result.search?.final ?? ""}\n`, io.stdout));
      return 0;
    } finally {
      if (options.trace && spans) {
        // Its own lines: an error line written after it must not run onto the tree's last line.
        // Open tool spans end first, so the tree shows every search.
        endOpenToolSpans();
        const tree = renderSpanTree(spans.spans());
        if (tree !== "") io.stderr.write(tree.endsWith("\n") ? tree : `${tree}\n`);
      }
    }
  });
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

/**
 * `ask --answer`: one answer from the bot's model grounded in the top sources, each citation
 * with its document, pages and a verbatim quote (docs/design.md §7). Needs a model.
 */
async function answerWithQuotes(
  bot: BotDefinition,
  question: string,
  progress: boolean,
): Promise<CitedAnswer> {
  if (!bot.config.model) {
    throw new CliError(
      `bot "${bot.name}" has no "model" in config.json: --answer needs one to write the answer`,
    );
  }
  const llm = createLlmClient(bot.config.provider ?? "copilot", bot.config.model, process.env, {
    botDir: bot.dir,
    useWireModel: true,
  });
  const reporter = progressReporter(progress);
  const opened = await openBotBackend(bot, {
    onProgress: reporter.update,
    refreshBudgetMs: refreshBudgetForAnswers(bot.config.knowledge.ingest),
  });
  reporter.stop();
  // The whole question is bounded by session.timeoutMs, as a session with the model is.
  const timeoutMs = bot.config.session.timeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  let cited: CitedAnswer;
  try {
    cited = await answerWithCitations(llm, assembleBot(bot, opened.backend).backend, question, {
      timeoutMs,
      signal: deadline,
    });
  } catch (error) {
    if (!deadline.aborted) throw error;
    cited = { question, answer: "", citations: [], usage: zeroUsage(), failure: "the search was aborted" };
  } finally {
    await opened.close();
  }
  if (cited.failure === undefined) return cited;
  const model = describeModel(bot);
  if (deadline.aborted) {
    throw new CliError(
      `no answer from the model ${model} within ${timeoutMs} ms (session.timeoutMs in ${bot.dir}/config.json)`,
    );
  }
  throw new CliError(`the model ${model} did not answer: ${cited.failure} — ${whatToCheck(bot)}`);
}

/**
 * Fails at once, with the line a failed answer gets, when the bot's own model server takes no
 * connection: the Copilot runtime would retry it for about half a minute before saying so. One
 * TCP connect, nothing sent; a server that is up costs that connect and nothing else.
 */
async function ensureModelReachable(bot: BotDefinition): Promise<void> {
  const provider = bot.config.provider;
  if (!provider) return;
  const check = await checkProviderReachable(provider, process.env);
  if (check.reachable !== false) return;
  throw new CliError(
    `the model ${describeModel(bot)} did not answer: ${check.reason} — is the model server running? ` +
      `check provider.baseUrl in ${bot.dir}/config.json`,
  );
}

/** `model (provider type at baseUrl)`, as the failure lines name the bot's model. */
function describeModel(bot: BotDefinition): string {
  const provider = bot.config.provider;
  return `${bot.config.model} (${provider ? `${provider.type} at ${provider.baseUrl}` : "GitHub Copilot"})`;
}

/** What a user can check when the bot's model fails. */
function whatToCheck(bot: BotDefinition): string {
  const provider = bot.config.provider;
  if (!provider) return "check the Copilot sign-in (COPILOT_GITHUB_TOKEN / GH_TOKEN / GITHUB_TOKEN)";
  const key = provider.apiKeyEnv ? ` and the key in $${provider.apiKeyEnv}` : "";
  return `check provider.baseUrl${key} in ${bot.dir}/config.json`;
}

function citedText(cited: CitedAnswer): string {
  const lines = [cited.answer, ""];
  for (const c of cited.citations) {
    const pages = renderPageRange(c.pages);
    const where = [c.title, c.heading].filter(Boolean).join(" — ") + (pages ? `, ${pages}` : "");
    lines.push(
      `[${c.n}] ${where}${c.quote ? `: "${c.quote.text}"` : ""}  (${c.collection}/${c.id})${c.url ? ` ${c.url}` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
