import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BotConfigError } from "../../src/bots/config-error.js";
import { CONFIG_OPTIONS } from "../../src/bots/config-options.js";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { parseBotConfig, validateBotConfig } from "../../src/bots/load-config.js";
import { allKeyPaths } from "../../src/bots/schema-keys.js";

const FILE = "bots/demo/config.json";
const minimal = { knowledge: { collections: { docs: { paths: ["docs/**/*.md"] } } } };

/** The problems a config produces (each line is one problem). */
function problems(data: unknown): string[] {
  try {
    validateBotConfig(data, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BotConfigError);
    return (error as BotConfigError).problems;
  }
  throw new Error("expected the config to be rejected");
}

function jsonProblem(text: string): string {
  try {
    parseBotConfig(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BotConfigError);
    return (error as BotConfigError).message;
  }
  throw new Error("expected the text to be rejected");
}

describe("bot config schema: defaults", () => {
  it("applies defaults to a minimal config", () => {
    const config = validateBotConfig(minimal, FILE);
    expect(config.persona).toBe("persona.md");
    expect(config.knowledge.backend).toBe("embedded");
    expect(config.retrieval).toEqual({
      rerankStrategy: "lexical",
      planning: false,
      answerSpans: false,
      deepFallback: "off",
    });
    expect(config.session).toEqual({ maxToolCalls: 8, timeoutMs: 120_000 });
    // Left unset on purpose, so the env defaults can apply at session time.
    expect(config.correctiveRetrieval).toBeUndefined();
    expect(validateBotConfig({ ...minimal, correctiveRetrieval: {} }, FILE).correctiveRetrieval).toEqual({});
  });

  it("accepts config.json.example, which uses every option", () => {
    const text = readFileSync(new URL("../../config.json.example", import.meta.url), "utf8");
    const config = parseBotConfig(text, "config.json.example");
    expect(config.correctiveRetrieval?.enabled).toBe(true);
    const used = new Set<string>();
    const walk = (value: unknown, prefix: string[]) => {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return;
      for (const [key, child] of Object.entries(value)) {
        const segment = prefix.join(".") === "knowledge.collections" ? "<name>" : key;
        if (prefix.join(".").endsWith("headers")) continue;
        used.add([...prefix, segment].join("."));
        walk(child, [...prefix, segment]);
      }
    };
    walk(JSON.parse(text), []);
    const schemaKeys = allKeyPaths(BotConfigSchema).map((p) => p.join("."));
    expect(schemaKeys.filter((k) => !used.has(k))).toEqual([]);
  });

  it("documents exactly the schema's options (graderProvider's keys are provider's)", () => {
    const schemaKeys = allKeyPaths(BotConfigSchema)
      .map((p) => p.join("."))
      .filter((k) => !k.startsWith("correctiveRetrieval.graderProvider."));
    expect(CONFIG_OPTIONS.map((o) => o.key).sort()).toEqual(schemaKeys.sort());
  });

  it("accepts a huginn bot without embedded collections", () => {
    const config = validateBotConfig(
      { knowledge: { backend: "huginn", huginn: { url: "http://localhost:8321", collections: ["wiki"] } } },
      FILE,
    );
    expect(config.knowledge.collections).toEqual({});
  });
});

describe("bot config schema: errors", () => {
  it("names the file, the full key path and the closest valid key for an unknown key", () => {
    expect(problems({ ...minimal, correctiveRetrival: { enabled: true } })).toEqual([
      `${FILE}: correctiveRetrival: unknown key; did you mean "correctiveRetrieval"?`,
    ]);
    expect(problems({ ...minimal, correctiveRetrieval: { retryBudjet: 2 } })).toEqual([
      `${FILE}: correctiveRetrieval.retryBudjet: unknown key; did you mean "retryBudget"?`,
    ]);
    expect(problems({ knowledge: { collections: { docs: { paths: ["a"], exlude: ["b"] } } } })).toEqual([
      `${FILE}: knowledge.collections.docs.exlude: unknown key; did you mean "exclude"?`,
    ]);
  });

  it("refuses time bounds a timer cannot wait (over 2^31 − 1 ms), naming each key", () => {
    const tooLong = 2 ** 31;
    const lines = problems({
      ...minimal,
      session: { timeoutMs: tooLong },
      correctiveRetrieval: { graderTimeoutMs: tooLong },
    });
    const why = "must be at most 2147483647 ms (2^31 − 1, the longest timer Node can wait), got 2147483648";
    expect([...lines].sort()).toEqual([
      `${FILE}: correctiveRetrieval.graderTimeoutMs: ${why}`,
      `${FILE}: session.timeoutMs: ${why}`,
    ]);
    expect(BotConfigSchema.parse({ ...minimal, session: { timeoutMs: 2 ** 31 - 1 } }).session.timeoutMs).toBe(
      2 ** 31 - 1,
    );
  });

  it("points a valid key at the wrong level to where it belongs", () => {
    expect(problems({ ...minimal, retryBudget: 2 })).toEqual([
      `${FILE}: retryBudget: unknown key here; did you mean "correctiveRetrieval.retryBudget"?`,
    ]);
  });

  it("lists the valid keys when nothing is close", () => {
    const [line] = problems({ ...minimal, retrieval: { colour: "blue" } });
    expect(line).toBe(
      `${FILE}: retrieval.colour: unknown key (valid keys here: rerankStrategy, planning, answerSpans, deepFallback)`,
    );
  });

  it("names the key and the value for a wrong type", () => {
    expect(problems({ ...minimal, correctiveRetrieval: { enabled: "yes" } })).toEqual([
      `${FILE}: correctiveRetrieval.enabled: expected boolean, got "yes"`,
    ]);
    expect(problems({ ...minimal, session: { maxToolCalls: 2.5 } })).toEqual([
      `${FILE}: session.maxToolCalls: expected an integer, got 2.5`,
    ]);
    expect(problems({ knowledge: { collections: { docs: { paths: "docs/*.md" } } } })).toEqual([
      `${FILE}: knowledge.collections.docs.paths: expected an array, got "docs/*.md"`,
    ]);
  });

  it("names the allowed values and the nearest one for a bad enum", () => {
    expect(problems({ ...minimal, correctiveRetrieval: { grader: "hiaku" } })).toEqual([
      `${FILE}: correctiveRetrieval.grader: expected one of "signal" | "haiku" | "auto", got "hiaku"; did you mean "haiku"?`,
    ]);
  });

  it("reports every problem, one line each", () => {
    const lines = problems({
      ...minimal,
      model: 42,
      session: { timeoutMs: -1 },
      retrieval: { rerankStrategy: "vector" },
    });
    expect(lines).toEqual([
      `${FILE}: model: expected string, got 42`,
      `${FILE}: retrieval.rerankStrategy: expected one of "lexical" | "single-pass", got "vector"`,
      `${FILE}: session.timeoutMs: must be > 0, got -1`,
    ]);
  });

  it("requires knowledge and says so", () => {
    expect(problems({})).toEqual([`${FILE}: knowledge: required but missing`]);
    expect(problems([])).toEqual([`${FILE}: (top level): expected a JSON object, got array []`]);
  });

  it("requires the huginn block for the huginn backend", () => {
    expect(problems({ knowledge: { backend: "huginn" } })).toEqual([
      `${FILE}: knowledge.huginn: backend "huginn" needs a knowledge.huginn block with url and collections`,
    ]);
  });

  it("requires at least one collection for the embedded backend", () => {
    const [line] = problems({ knowledge: { backend: "embedded", collections: {} } });
    expect(line).toMatch(
      /^bots\/demo\/config\.json: knowledge\.collections: backend "embedded" needs at least one/,
    );
    expect(line).toContain("got object {}");
    expect(problems({ knowledge: { collections: { docs: { paths: [] } } } })).toEqual([
      `${FILE}: knowledge.collections.docs.paths: needs at least one glob, got array []`,
    ]);
  });

  it("requires lowercase slug collection names", () => {
    const [line] = problems({ knowledge: { collections: { "Hand Book": { paths: ["a"] } } } });
    expect(line).toMatch(
      /^bots\/demo\/config\.json: knowledge\.collections\["Hand Book"\]: invalid name "Hand Book": /,
    );
  });

  it("requires a model with a provider, and an env var NAME, never a key", () => {
    const provider = {
      type: "anthropic",
      baseUrl: "https://api.anthropic.com",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    };
    expect(problems({ ...minimal, provider })).toEqual([
      `${FILE}: model: is required when provider is set (the provider needs a model name to call)`,
    ]);
    const [line] = problems({
      ...minimal,
      model: "m",
      provider: { ...provider, apiKeyEnv: "sk-ant-api03-secret" },
    });
    expect(line).toContain(`${FILE}: provider.apiKeyEnv: must be the NAME of the environment variable`);
    expect(line).toContain("<redacted string>");
    expect(line).not.toContain("secret");
    expect(problems({ ...minimal, model: "m", provider: { ...provider, type: "gemini" } })).toEqual([
      `${FILE}: provider.type: expected one of "openai" | "anthropic" | "azure", got "gemini"`,
    ]);
  });

  it("rejects a non-http URL and names the value", () => {
    expect(
      problems({ knowledge: { backend: "huginn", huginn: { url: "localhost:8321", collections: ["w"] } } }),
    ).toEqual([`${FILE}: knowledge.huginn.url: must be an http(s) URL, got "localhost:8321"`]);
  });
});

describe("bot config: invalid JSON", () => {
  it("names the file, line and column", () => {
    const text = '{\n  "knowledge": {\n    "backend": "embedded",\n  }\n}\n';
    // V8's own wording sits between the position and our hint; it varies across Node versions.
    expect(jsonProblem(text)).toMatch(
      /^bots\/demo\/config\.json: invalid JSON at line 4, column 3: .+ \(trailing comma\)$/,
    );
  });

  it("spots comments and single quotes", () => {
    expect(jsonProblem('{\n  // my bot\n  "a": 1\n}')).toMatch(
      /line 2, column 3: .*\(comments are not allowed/,
    );
    expect(jsonProblem("{'a': 1}")).toMatch(/line 1, column 2: .*\(JSON strings need double quotes\)/);
  });

  it("reports a truncated file at its end, and an empty file as such", () => {
    expect(jsonProblem('{\n  "a": 1,')).toBe(
      `${FILE}: invalid JSON at line 2, column 10: unexpected end of file (a missing closing bracket or brace?)`,
    );
    expect(jsonProblem("  \n")).toBe(`${FILE}: the file is empty (expected a JSON object)`);
  });

  it("ignores a byte-order mark", () => {
    expect(parseBotConfig(`\uFEFF${JSON.stringify(minimal)}`, FILE).knowledge.backend).toBe("embedded");
  });
});
