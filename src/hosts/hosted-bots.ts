// `second-look serve` without the command line: every bot that has platform credentials gets
// its runtime, one answer queue shared by its hosts, and a Slack and/or Teams app. Stopping
// takes the bots off the platforms first (no new questions), lets the answers in flight finish
// within the timeout, then closes the runtimes.
import type { BotDefinition } from "../bots/discovery.js";
import type { BotRuntime } from "../connectors/bot-runtime.js";
import type { Logger } from "../telemetry/logger.js";
import { AnswerQueue } from "./answer-queue.js";
import { type HostPlan, hasPlatform, hostVariables } from "./host-credentials.js";
import type { PlatformContext } from "./platform.js";
import { PLATFORMS } from "./platforms.js";

export interface HostedBotsOptions {
  /** Questions each bot answers at the same time. */
  concurrency: number;
  /** Questions each bot lets wait; past this it replies that it is busy. */
  maxQueued: number;
  /** Interface for the HTTP listeners (Slack HTTP events, Teams). */
  host?: string;
  log: Logger;
  /** The bot's runtime (serve: openBotRuntime). */
  openRuntime: (bot: BotDefinition) => Promise<BotRuntime>;
  /** Tests: extra Slack app options (a receiver, a fake Web API). */
  slack?: PlatformContext["slack"];
}

export interface ServingBot {
  bot: string;
  /** `Slack (Socket Mode)`, `Teams on :3978/api/messages`, … */
  platforms: string[];
}

export interface StartFailure {
  bot: string;
  /** One line; the detail is in the log. */
  reason: string;
}

export interface HostedBots {
  serving: ServingBot[];
  failures: StartFailure[];
  /** Graceful stop: see the file comment. Resolves when everything is closed. */
  stop(timeoutMs: number): Promise<void>;
}

interface Running {
  bot: string;
  runtime: BotRuntime;
  queue: AnswerQueue;
  apps: Array<{ stop(): Promise<void> }>;
  platforms: string[];
}

/** Two HTTP listeners on one port cannot both start: name the variable that separates them. */
export function portConflicts(plans: readonly HostPlan[]): string[] {
  const owners = new Map<number, string>();
  const conflicts: string[] = [];
  for (const plan of plans) {
    const v = hostVariables(plan.bot);
    const listeners: Array<[number, string]> = [];
    const slack = plan.slack.credentials;
    if (slack?.mode === "http") listeners.push([slack.port, v.slackPort]);
    if (plan.teams.credentials) listeners.push([plan.teams.credentials.port, v.teamsPort]);
    for (const [port, variable] of listeners) {
      const owner = owners.get(port);
      if (owner)
        conflicts.push(`port ${port} is used by ${owner} and ${variable}: set ${variable} to another port`);
      else owners.set(port, variable);
    }
  }
  return conflicts;
}

async function stopQuietly(app: { stop(): Promise<void> }, log: Logger): Promise<void> {
  try {
    await app.stop();
  } catch (error) {
    log.warn({ err: error }, "platform app did not stop cleanly");
  }
}

async function startBot(bot: BotDefinition, plan: HostPlan, options: HostedBotsOptions): Promise<Running> {
  const log = options.log.child({ bot: bot.name });
  const runtime = await options.openRuntime(bot);
  const queue = new AnswerQueue({ concurrency: options.concurrency, maxQueued: options.maxQueued, log });
  const platforms: string[] = [];
  const running: Running = { bot: bot.name, runtime, queue, apps: [], platforms };
  try {
    const context: PlatformContext = {
      bot: bot.name,
      runtime,
      queue,
      log,
      ...(options.host ? { host: options.host } : {}),
      ...(options.slack ? { slack: options.slack } : {}),
    };
    for (const platform of PLATFORMS) {
      if (!platform.planned(plan)) continue;
      const started = await platform.start(plan, context);
      running.apps.push(started);
      platforms.push(started.describe);
    }
  } catch (error) {
    for (const app of running.apps) await stopQuietly(app, log);
    await runtime.close().catch(() => undefined);
    throw error;
  }
  log.info({ platforms }, `bot ${bot.name}: serving on ${platforms.join(", ")}`);
  return running;
}

export async function startHostedBots(
  bots: readonly BotDefinition[],
  plans: readonly HostPlan[],
  options: HostedBotsOptions,
): Promise<HostedBots> {
  const running: Running[] = [];
  const serving: ServingBot[] = [];
  const failures: StartFailure[] = [];
  // One at a time: opening a runtime may build the bot's index, which is memory-hungry.
  for (const plan of plans) {
    const bot = bots.find((b) => b.name === plan.bot);
    if (!bot || !hasPlatform(plan)) continue;
    try {
      const started = await startBot(bot, plan, options);
      running.push(started);
      serving.push({ bot: bot.name, platforms: started.platforms });
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0]! : String(error);
      options.log.error({ err: error, bot: bot.name }, `bot ${bot.name}: could not start: ${reason}`);
      failures.push({ bot: bot.name, reason });
    }
  }

  let stopping: Promise<void> | undefined;
  const stop = (timeoutMs: number): Promise<void> => {
    stopping ??= (async () => {
      for (const bot of running) for (const app of bot.apps) await stopQuietly(app, options.log);
      const outcomes = await Promise.all(running.map((bot) => bot.queue.drain(timeoutMs)));
      outcomes.forEach((outcome, i) => {
        if (!outcome.completed) {
          options.log.warn(
            { bot: running[i]!.bot, aborted: outcome.aborted },
            "shutdown timeout: unfinished answers were stopped",
          );
        }
      });
      await Promise.all(running.map((bot) => bot.runtime.close().catch(() => undefined)));
    })();
    return stopping;
  };
  return { serving, failures, stop };
}
