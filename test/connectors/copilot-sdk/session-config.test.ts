import { describe, expect, it } from "vitest";
import type { BotDescription } from "../../../src/connectors/bot-runtime.js";
import type { PostToolUseHandler } from "../../../src/connectors/copilot-sdk/post-tool-use-types.js";
import {
  buildSessionConfig,
  redactSessionConfig,
} from "../../../src/connectors/copilot-sdk/session-config.js";

const bot: BotDescription = {
  name: "hr",
  dir: "/bots/hr",
  persona: "You are the HR bot.",
  model: "claude-haiku-4.5",
  provider: { type: "anthropic", baseUrl: "https://api.example.test", apiKeyEnv: "KEY" },
  limits: { maxToolCalls: 8, timeoutMs: 60_000 },
};
const tools = [{ name: "search_knowledge" }, { name: "get_document" }];
const hook: PostToolUseHandler = async () => undefined;

describe("buildSessionConfig", () => {
  it("without a hook there is no hooks key at all", () => {
    const config = buildSessionConfig({ bot, tools, workingDirectory: "/w" });
    expect("hooks" in config).toBe(false);
  });

  it("with a hook, only onPostToolUse is registered", () => {
    const config = buildSessionConfig({ bot, tools, workingDirectory: "/w", onPostToolUse: hook });
    expect(config.hooks).toEqual({ onPostToolUse: hook });
  });

  it("restricts tools, replaces the system prompt, disables infinite sessions, passes the provider", () => {
    const config = buildSessionConfig({ bot, tools, workingDirectory: "/w", apiKey: "sk-1" });
    expect(config).toMatchObject({
      model: "claude-haiku-4.5",
      availableTools: ["search_knowledge", "get_document"],
      systemMessage: { mode: "replace", content: "You are the HR bot." },
      infiniteSessions: { enabled: false },
      skipCustomInstructions: true,
      provider: { type: "anthropic", baseUrl: "https://api.example.test", apiKey: "sk-1" },
    });
    expect(config.onPermissionRequest).toBeTypeOf("function");
  });

  it("no provider: the user's Copilot sign-in is used (no provider key, model optional)", () => {
    const { provider: _p, model: _m, ...plain } = bot;
    const config = buildSessionConfig({ bot: plain, tools, workingDirectory: "/w" });
    expect("provider" in config).toBe(false);
    expect("model" in config).toBe(false);
  });

  it("a provider without a model is a config error", () => {
    const { model: _m, ...noModel } = bot;
    expect(() => buildSessionConfig({ bot: noModel, tools, workingDirectory: "/w" })).toThrow(/no model/);
  });

  it("attached MCP servers are offered alongside the bot's tools", () => {
    const config = buildSessionConfig({
      bot,
      tools,
      workingDirectory: "/w",
      mcpServers: { knowledge: { type: "stdio", command: "huginn-mcp", args: [], tools: ["*"] } },
    });
    expect(config.availableTools).toEqual(["search_knowledge", "get_document", "mcp:*"]);
    expect(config.mcpServers).toHaveProperty("knowledge");
  });

  it("redaction blanks the key in a copy and leaves the config usable", () => {
    const config = buildSessionConfig({ bot, tools, workingDirectory: "/w", apiKey: "sk-1" });
    const shown = redactSessionConfig(config);
    expect(shown.provider?.apiKey).toBe("[redacted]");
    expect(config.provider?.apiKey).toBe("sk-1");
    expect(JSON.stringify(shown)).not.toContain("sk-1");
  });
});
