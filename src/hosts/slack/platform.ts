// Slack as a platform of `serve` (src/hosts/platform.ts). @slack/bolt loads on first start.
import { loadOptional } from "../../optional-package.js";
import type { Platform } from "../platform.js";

export const slackPlatform: Platform = {
  planned: (plan) => plan.slack.credentials !== undefined,
  async start(plan, context) {
    const credentials = plan.slack.credentials!;
    const [{ createSlackApp }, { attachSlackHost }] = await loadOptional(
      { packages: ["@slack/bolt"], neededFor: `bot ${context.bot} on Slack`, layer: "hosts" },
      () => Promise.all([import("./app.js"), import("./host.js")]),
    );
    const slack = createSlackApp(credentials, {
      log: context.log,
      ...(context.host ? { host: context.host } : {}),
      ...context.slack,
    });
    attachSlackHost(slack.app, {
      bot: context.bot,
      runtime: context.runtime,
      queue: context.queue,
      log: context.log,
    });
    await slack.start();
    return { describe: `Slack (${slack.describe})`, stop: () => slack.stop() };
  },
};
