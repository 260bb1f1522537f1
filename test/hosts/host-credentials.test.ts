import { describe, expect, it } from "vitest";
import { hasPlatform, planHosts } from "../../src/hosts/host-credentials.js";

describe("planHosts", () => {
  it("uses Socket Mode when the bot has an app-level token", () => {
    const plan = planHosts("ops-faq.v2", {
      SLACK_BOT_TOKEN_OPS_FAQ_V2: "xoxb-1",
      SLACK_APP_TOKEN_OPS_FAQ_V2: "xapp-1",
      SLACK_SIGNING_SECRET_OPS_FAQ_V2: "secret",
    });
    expect(plan.slack.credentials).toEqual({ mode: "socket", botToken: "xoxb-1", appToken: "xapp-1" });
    expect(hasPlatform(plan)).toBe(true);
  });

  it("uses HTTP events with a signing secret, on the bot's port", () => {
    const plan = planHosts("wiki", {
      SLACK_BOT_TOKEN_WIKI: "xoxb-1",
      SLACK_SIGNING_SECRET_WIKI: "secret",
      SLACK_PORT_WIKI: "3100",
    });
    expect(plan.slack.credentials).toEqual({
      mode: "http",
      botToken: "xoxb-1",
      signingSecret: "secret",
      port: 3100,
    });
  });

  it("reads the Teams client credentials, tenant optional", () => {
    const plan = planHosts("wiki", {
      TEAMS_CLIENT_ID_WIKI: "id",
      TEAMS_CLIENT_SECRET_WIKI: "secret",
      TEAMS_TENANT_ID_WIKI: "tenant",
    });
    expect(plan.teams.credentials).toEqual({
      clientId: "id",
      clientSecret: "secret",
      tenantId: "tenant",
      port: 3978,
    });
    expect(planHosts("wiki", { TEAMS_CLIENT_ID_WIKI: "id" }).teams.missing).toBe(
      "TEAMS_CLIENT_SECRET_WIKI (with TEAMS_TENANT_ID_WIKI for a single-tenant app)",
    );
  });

  it("names missing and unusable variables, never their values", () => {
    const plan = planHosts("wiki", { SLACK_BOT_TOKEN_WIKI: "xoxp-user-token", TEAMS_PORT_WIKI: "nope" });
    expect(plan.slack.invalid).toBe("SLACK_BOT_TOKEN_WIKI must be a bot token (xoxb-…)");
    expect(JSON.stringify(plan)).not.toContain("xoxp-user-token");
    expect(hasPlatform(planHosts("wiki", {}))).toBe(false);
    expect(
      planHosts("wiki", { SLACK_BOT_TOKEN_WIKI: "xoxb-1", SLACK_APP_TOKEN_WIKI: "xoxb-2" }).slack.invalid,
    ).toBe("SLACK_APP_TOKEN_WIKI must be an app-level token (xapp-…)");
  });
});
