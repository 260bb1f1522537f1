import { describe, expect, it } from "vitest";
import { botEnvSuffix, botEnvVar } from "../../src/bots/bot-env.js";

describe("botEnvSuffix", () => {
  it("upper-cases and turns runs of other characters into one underscore", () => {
    expect(botEnvSuffix("handbook")).toBe("HANDBOOK");
    expect(botEnvSuffix("ops-faq.v2")).toBe("OPS_FAQ_V2");
    expect(botEnvSuffix("my bot")).toBe("MY_BOT");
    expect(botEnvSuffix("a--b")).toBe("A_B");
  });
  it("builds per-bot variable names", () => {
    expect(botEnvVar("SLACK_BOT_TOKEN", "handbook")).toBe("SLACK_BOT_TOKEN_HANDBOOK");
  });
});
