// `second-look serve [--bots a,b]`: every discovered bot with platform credentials answers in
// Slack and/or Teams until SIGTERM (or SIGINT), then finishes the answers in flight within the
// shutdown timeout. Bots without credentials are listed with the variables that would enable
// them; with none enabled at all the command exits non-zero with that list.
import { findBots, resolveBots } from "../bots/bot-resolver.js";
import { type BotDefinition, BotNotFoundError } from "../bots/discovery.js";
import { hasModel, openBotRuntime } from "../connectors/open-bot-runtime.js";
import { type HostPlan, hasPlatform, planHosts } from "../hosts/host-credentials.js";
import { portConflicts, startHostedBots } from "../hosts/hosted-bots.js";
import { checkProviderReachable } from "../llm/provider-reachability.js";
import { type Logger, logger } from "../telemetry/logger.js";
import { CliError } from "./cli-error.js";
import { untilSignal, wholeOption } from "./cli-options.js";
import { withTracing } from "./tracing.js";

export interface ServeOptions {
  bots?: string;
  concurrency?: string;
  maxQueue?: string;
  shutdownTimeout?: string;
  host?: string;
}

export interface ServeDeps {
  env: NodeJS.ProcessEnv;
  /** Resolves with the signal's name when the process is asked to stop. */
  untilStopped: () => Promise<string>;
}

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

export const SERVE_DEFAULTS = { concurrency: 4, maxQueue: 100, shutdownTimeoutSeconds: 30 } as const;

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

/**
 * One warning line per served bot whose own model server takes no connection now. Serving goes
 * on: the server may come up later, and until then each question gets a short sentence at once
 * (the runtime checks again before every question).
 */
async function warnUnreachableModels(bots: readonly BotDefinition[], env: NodeJS.ProcessEnv, log: Logger) {
  await Promise.all(
    bots.map(async (bot) => {
      const provider = bot.config.provider;
      if (!provider || !hasModel(bot)) return;
      const check = await checkProviderReachable(provider, env);
      if (check.reachable !== false) return;
      log.warn(
        { bot: bot.name, baseUrl: provider.baseUrl },
        `bot ${bot.name}: model server unreachable: ${check.reason}; serving anyway, questions are ` +
          `answered "can't reach my language model" until it is up — check that the model server runs ` +
          `and provider.baseUrl in ${bot.dir}/config.json`,
      );
    }),
  );
}

/** `  handbook: Slack: set …; Teams: set …` — what would enable a bot that is off. */
function skippedLine(plan: HostPlan): string {
  const parts: string[] = [];
  const slack = plan.slack.invalid ?? (plan.slack.missing ? `set ${plan.slack.missing}` : undefined);
  const teams = plan.teams.invalid ?? (plan.teams.missing ? `set ${plan.teams.missing}` : undefined);
  if (slack && !plan.slack.credentials) parts.push(`Slack: ${slack}`);
  if (teams && !plan.teams.credentials) parts.push(`Teams: ${teams}`);
  return `  ${plan.bot}: ${parts.join("; ")}`;
}

/**
 * The bots named by `--bots` (names or folder paths), else every bot found from the working
 * directory (./bots and its own sub-folders); a found bot whose config is unusable is skipped
 * with one line.
 */
async function botsToServe(
  refs: string | undefined,
  env: NodeJS.ProcessEnv,
  io: Io,
): Promise<BotDefinition[]> {
  if (refs !== undefined) {
    const wanted = refs
      .split(",")
      .map((ref) => ref.trim())
      .filter(Boolean);
    try {
      return await resolveBots(wanted, { env });
    } catch (error) {
      if (error instanceof BotNotFoundError) throw new CliError(`--bots names ${error.message}`);
      throw error;
    }
  }
  const found = await findBots({ env });
  for (const failure of found.failures) {
    io.stderr.write(`skipped ${failure.name}: its config cannot be used: ${failure.error.split("\n")[0]}\n`);
  }
  if (found.bots.length === 0) throw new CliError(`no bots to serve under ${found.searched.join(" or ")}`);
  return found.bots;
}

export async function runServe(
  options: ServeOptions,
  io: Io,
  deps: ServeDeps = { env: process.env, untilStopped: untilSignal },
): Promise<number> {
  const concurrency = wholeOption(options.concurrency, "--concurrency", SERVE_DEFAULTS.concurrency, 1, 64);
  const maxQueued = wholeOption(options.maxQueue, "--max-queue", SERVE_DEFAULTS.maxQueue, 0, 10_000);
  const timeoutSeconds = wholeOption(
    options.shutdownTimeout,
    "--shutdown-timeout",
    SERVE_DEFAULTS.shutdownTimeoutSeconds,
    1,
    3_600,
  );

  const bots = await botsToServe(options.bots, deps.env, io);

  const plans = bots.map((bot) => planHosts(bot.name, deps.env));
  const enabled = plans.filter(hasPlatform);
  const skipped = plans.filter((plan) => !hasPlatform(plan));
  if (enabled.length === 0) {
    io.stderr.write(
      "second-look serve: no bot has Slack or Teams credentials, so nothing was started.\n" +
        "Set these environment variables to enable a bot:\n" +
        `${skipped.map(skippedLine).join("\n")}\n`,
    );
    return 1;
  }
  const conflicts = portConflicts(enabled);
  if (conflicts.length > 0) {
    io.stderr.write(`second-look serve: ${conflicts.join("\n  ")}\n`);
    return 1;
  }
  const mute = cannotAnswer(bots, enabled);
  if (mute.length > 0) {
    io.stderr.write(mute.map((line) => `second-look serve: ${line}\n`).join(""));
    return 1;
  }
  for (const plan of skipped) io.stdout.write(`skipped${skippedLine(plan).replace(/^ +/, " ")}\n`);
  for (const plan of enabled) {
    for (const invalid of [plan.slack.invalid, plan.teams.invalid]) {
      if (invalid) io.stderr.write(`second-look serve: ${plan.bot}: ${invalid}\n`);
    }
  }

  // Spans of every question go where the OTEL_* environment says; flushed after the stop.
  const plan: ServePlan = { bots, enabled, host: options.host, concurrency, maxQueued, timeoutSeconds };
  return withTracing({ keepSpans: false }, () => serveUntilStopped(plan, io, deps));
}

/**
 * One line per bot with platform credentials that could not answer a question: its config names
 * no model and no provider, so every message would get "Sorry, something went wrong". (A provider
 * without a model is refused when the config is read, config-schema.ts.)
 */
function cannotAnswer(bots: readonly BotDefinition[], enabled: readonly HostPlan[]): string[] {
  return bots
    .filter((bot) => enabled.some((plan) => plan.bot === bot.name))
    .filter((bot) => !hasModel(bot))
    .map(
      (bot) =>
        `bot ${bot.name} cannot answer: ${bot.configFile} names no model and no provider; set "model" (a Copilot model), or "model" and "provider" (your own endpoint), then serve it`,
    );
}

/** What runServe settled before starting: the bots, those with a platform, and the limits. */
interface ServePlan {
  bots: BotDefinition[];
  enabled: HostPlan[];
  host: string | undefined;
  concurrency: number;
  maxQueued: number;
  timeoutSeconds: number;
}

async function serveUntilStopped(plan: ServePlan, io: Io, deps: ServeDeps): Promise<number> {
  const { bots, enabled, concurrency, maxQueued, timeoutSeconds } = plan;
  const log = logger();
  // Asked while the bots start (an index may take a while), reported as soon as known.
  const modelChecks = warnUnreachableModels(
    bots.filter((bot) => enabled.some((plan) => plan.bot === bot.name)),
    deps.env,
    log,
  );
  const hosted = await startHostedBots(bots, enabled, {
    concurrency,
    maxQueued,
    ...(plan.host ? { host: plan.host } : {}),
    // GovSlack (https://slack-gov.com/api/), a proxy, or a local fake: where the Web API lives.
    ...(deps.env.SLACK_API_URL ? { slack: { slackApiUrl: withSlash(deps.env.SLACK_API_URL) } } : {}),
    log,
    openRuntime: async (bot) => (await openBotRuntime(bot, { env: deps.env })).runtime,
  });
  await modelChecks;
  for (const failure of hosted.failures) {
    io.stderr.write(`second-look serve: ${failure.bot} could not start: ${failure.reason}\n`);
  }
  if (hosted.serving.length === 0) {
    await hosted.stop(1_000);
    return 1;
  }
  for (const bot of hosted.serving) io.stdout.write(`serving ${bot.bot}: ${bot.platforms.join(", ")}\n`);

  const signal = await deps.untilStopped();
  log.info({ signal, timeoutSeconds }, "stopping: finishing answers in flight");
  await hosted.stop(timeoutSeconds * 1_000);
  io.stdout.write("stopped\n");
  return 0;
}
