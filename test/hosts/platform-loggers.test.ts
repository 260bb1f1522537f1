import { LogLevel } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { slackLogger } from "../../src/hosts/slack/logger.js";
import { teamsLogger } from "../../src/hosts/teams/logger.js";
import { recordingLog } from "./support/silent-log.js";

// Both SDKs' own loggers write to stdout, which belongs to the CLI: their lines must reach the
// process's log (stderr) instead, named after the SDK.
describe("platform SDK loggers", () => {
  it("Slack's lines go to the log at their level, under the name Bolt gives the logger", () => {
    const { log, lines } = recordingLog();
    const slack = slackLogger(log);
    slack.info("socket mode", "connected", 3);
    slack.setName("bolt-app");
    slack.error(new Error("bad token"));
    slack.setLevel(LogLevel.DEBUG);
    expect(slack.getLevel()).toBe(LogLevel.DEBUG);
    expect(lines.map((l) => [l.level, l.sdk, l.msg])).toEqual([
      [30, "slack", "socket mode connected 3"],
      [50, "bolt-app", "(no message)"],
    ]);
    expect(lines[1]?.err).toMatchObject({ message: "bad token" });
  });

  it("Teams' trace and named levels map onto the log's levels, and children carry their path", () => {
    const { log, lines } = recordingLog();
    const teams = teamsLogger(log);
    teams.trace("tick");
    teams.log("warn", "slow", { ms: 900 });
    // A level this SDK version's types do not know (a newer SDK's) is logged at info, not lost.
    teams.log("verbose" as Parameters<typeof teams.log>[0], "unknown level");
    teams.child("http").debug("GET /api/messages");
    expect(lines.map((l) => [l.level, l.sdk, l.msg])).toEqual([
      [20, "teams", "tick"],
      [40, "teams", "slow"],
      [30, "teams", "unknown level"],
      [20, "teams/http", "GET /api/messages"],
    ]);
    expect(lines[1]?.arg0).toEqual({ ms: 900 });
  });
});
