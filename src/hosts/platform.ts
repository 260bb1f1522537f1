// What one chat platform (Slack, Teams, …) says about itself to `serve`: how to start a bot on
// it when the bot has credentials for it. Each platform is an entry in its own folder
// (slack/platform.ts, teams/platform.ts), listed in platforms.ts; its SDK is an optional peer
// dependency imported on first start (src/optional-package.ts), so `second-look` without
// Slack or Teams installed still serves the other one, and a library user loads neither.
import type { BotRuntime } from "../connectors/bot-runtime.js";
import type { Logger } from "../telemetry/logger.js";
import type { AnswerQueue } from "./answer-queue.js";
import type { HostPlan } from "./host-credentials.js";
import type { SlackAppOptions } from "./slack/app.js";

export interface PlatformContext {
  bot: string;
  runtime: BotRuntime;
  queue: AnswerQueue;
  log: Logger;
  /** Interface for the HTTP listeners. */
  host?: string;
  /** Tests: extra Slack app options (a receiver, a fake Web API). */
  slack?: Partial<Pick<SlackAppOptions, "receiver" | "slackApiUrl">>;
}

export interface StartedPlatform {
  /** `Slack (Socket Mode)`, `Teams on :3978/api/messages`, for the startup summary. */
  describe: string;
  /** Stops receiving questions; answers in flight can still post. */
  stop(): Promise<void>;
}

export interface Platform {
  /** Whether the bot's plan has this platform's credentials. */
  planned(plan: HostPlan): boolean;
  /** Starts the bot on the platform (its plan has credentials for it). */
  start(plan: HostPlan, context: PlatformContext): Promise<StartedPlatform>;
}
