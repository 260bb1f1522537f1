// A Bolt app for one bot: Socket Mode (an outbound WebSocket; nothing to expose to the
// internet) when the bot has an app-level token, else the HTTP Events API on its port with
// Slack's request signatures verified by Bolt. Tests pass their own receiver and point the Web
// API client at a local fake.

import { App, type Receiver } from "@slack/bolt";
import { DEADLINES } from "../../deadline.js";
import { quoteScrubbed } from "../../secret-text.js";
import type { SlackCredentials } from "../host-credentials.js";
import type { PlatformApp, PlatformAppOptions } from "../platform-app.js";
import { slackLogger } from "./logger.js";

/** Bound on one Web API call; a hung call must not hold an answer slot forever. */
const WEB_API_TIMEOUT_MS = DEADLINES.slackWebApiMs;

export interface SlackAppOptions extends PlatformAppOptions {
  /** Replaces Socket Mode / HTTP (tests). */
  receiver?: Receiver;
  /** Where the Web API lives (tests: a fake on 127.0.0.1); must end in `/`. */
  slackApiUrl?: string;
}

export type SlackApp = PlatformApp<App>;

export function createSlackApp(credentials: SlackCredentials, options: SlackAppOptions): SlackApp {
  const logger = slackLogger(options.log);
  const clientOptions = {
    timeout: WEB_API_TIMEOUT_MS,
    retryConfig: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 4_000 },
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
  };
  // No eager token check in the constructor: Bolt would start an auth.test whose failure nobody
  // awaits, so an unreachable Slack killed the process with an unhandled rejection. The check
  // runs in start() instead, where a failure is one warning and the bot keeps serving.
  const common = { token: credentials.botToken, logger, clientOptions, tokenVerificationEnabled: false };
  let app: App;
  if (options.receiver) {
    app = new App({ ...common, receiver: options.receiver });
  } else if (credentials.mode === "socket") {
    app = new App({ ...common, appToken: credentials.appToken, socketMode: true });
  } else {
    app = new App({ ...common, signingSecret: credentials.signingSecret });
  }
  const describe =
    credentials.mode === "socket"
      ? "Socket Mode"
      : `HTTP events on ${options.host ?? ""}:${credentials.port}`;
  return {
    app,
    describe,
    start: async () => {
      // Not awaited: a slow or unreachable Slack must not hold up the other bots' start.
      void app.client.auth.test().then(
        () => options.log.debug("slack: bot token verified"),
        (error: unknown) =>
          options.log.warn(
            `slack: cannot verify the bot token (${slackErrorText(error, slackSecrets(credentials))}); serving anyway — check the network to ${options.slackApiUrl ?? "https://slack.com/api/"} and the bot token`,
          ),
      );
      if (!options.receiver && credentials.mode === "http") {
        await app.start({ port: credentials.port, ...(options.host ? { host: options.host } : {}) });
      } else {
        await app.start();
      }
    },
    stop: async () => {
      await app.stop();
    },
  };
}

/** The bot's Slack secrets, never quoted back from an error. */
function slackSecrets(credentials: SlackCredentials): string[] {
  return credentials.mode === "socket"
    ? [credentials.botToken, credentials.appToken]
    : [credentials.botToken, credentials.signingSecret];
}

/**
 * A Web API error as a few words: its code and message, never a stack or a request dump, with
 * `secrets` scrubbed before the words are cut.
 */
export function slackErrorText(error: unknown, secrets: readonly string[] = []): string {
  const e = error as { code?: unknown; message?: unknown; original?: { code?: unknown; message?: unknown } };
  const original = e?.original;
  const detail = typeof original?.message === "string" ? original.message : undefined;
  const message = typeof e?.message === "string" ? e.message : String(error);
  return quoteScrubbed(detail && !message.includes(detail) ? `${message}: ${detail}` : message, secrets, 300);
}
