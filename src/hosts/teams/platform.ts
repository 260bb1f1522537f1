// Microsoft Teams as a platform of `serve` (src/hosts/platform.ts). @microsoft/teams.apps
// loads on first start.
import { loadOptional } from "../../optional-package.js";
import type { Platform } from "../platform.js";

export const teamsPlatform: Platform = {
  planned: (plan) => plan.teams.credentials !== undefined,
  async start(plan, context) {
    const { port, ...auth } = plan.teams.credentials!;
    const [{ createTeamsApp }, { attachTeamsHost }] = await loadOptional(
      { packages: ["@microsoft/teams.apps"], neededFor: `bot ${context.bot} on Teams`, layer: "hosts" },
      () => Promise.all([import("./app.js"), import("./host.js")]),
    );
    const teams = createTeamsApp(auth, {
      log: context.log,
      port,
      ...(context.host ? { host: context.host } : {}),
    });
    attachTeamsHost(teams.app, {
      bot: context.bot,
      runtime: context.runtime,
      queue: context.queue,
      log: context.log,
    });
    await teams.start();
    return { describe: teams.describe, stop: () => teams.stop() };
  },
};
