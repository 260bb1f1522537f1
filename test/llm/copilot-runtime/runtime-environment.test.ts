import { describe, expect, it } from "vitest";
import { runtimeEnvironment, runtimeLocation } from "../../../src/llm/copilot-runtime/runtime-environment.js";

const host = {
  PATH: "/usr/bin",
  HOME: "/home/real",
  LANG: "C.UTF-8",
  HTTPS_PROXY: "http://proxy:3128",
  GH_TOKEN: "gho_secret",
  COPILOT_GITHUB_TOKEN: "cgt_secret",
  COPILOT_CLI_PATH: "/opt/other/copilot",
  XDG_CONFIG_HOME: "/home/real/.config",
  ANTHROPIC_API_KEY: "sk-ant",
  NODE_OPTIONS: "--inspect",
};

describe("runtime environment", () => {
  it("lives under the bot folder", () => {
    expect(runtimeLocation("/bots/hr")).toEqual({
      home: "/bots/hr/.second-look/copilot-home",
      baseDirectory: "/bots/hr/.second-look/copilot-home/.copilot",
    });
  });

  it("with a provider: isolated HOME, offline, no tokens, no keys, no runtime override", () => {
    const env = runtimeEnvironment({
      hostEnv: host,
      home: "/iso",
      provider: { type: "openai", baseUrl: "http://127.0.0.1:1/v1", model: "m" },
    });
    expect(env).toEqual({
      PATH: "/usr/bin",
      LANG: "C.UTF-8",
      HTTPS_PROXY: "http://proxy:3128",
      HOME: "/iso",
      USERPROFILE: "/iso",
      COPILOT_AUTO_UPDATE: "false",
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:1/v1",
      COPILOT_PROVIDER_TYPE: "openai",
      COPILOT_MODEL: "m",
    });
  });

  it("without a provider: sign-in tokens pass through, offline is not set", () => {
    const env = runtimeEnvironment({ hostEnv: host, home: "/iso" });
    expect(env.GH_TOKEN).toBe("gho_secret");
    expect(env.COPILOT_GITHUB_TOKEN).toBe("cgt_secret");
    expect(env.COPILOT_OFFLINE).toBeUndefined();
    expect(env.HOME).toBe("/iso");
    expect(env.COPILOT_CLI_PATH).toBeUndefined();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });
});
