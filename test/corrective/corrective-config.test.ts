import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  clampBudget,
  DEFAULT_GRADER_MODEL,
  DEFAULT_GRADER_TIMEOUT_MS,
  describeCorrective,
  isKillSwitchOn,
  parseGraderMode,
  resolveCorrectiveConfig,
} from "../../src/corrective/corrective-config.js";
import { createLogger, setLogger } from "../../src/telemetry/logger.js";

const core = (r: ReturnType<typeof resolveCorrectiveConfig>) => ({
  enabled: r.enabled,
  retryBudget: r.retryBudget,
  grader: r.grader,
});

describe("clampBudget (muninn 61)", () => {
  it("clamps to the 1–2 range and floors", () => {
    expect([0, 1, 2, 5, 1.9, Number.NaN].map(clampBudget)).toEqual([1, 1, 2, 2, 1, 1]);
  });
  it("turns non-finite values and non-numbers into 1", () => {
    expect([Number.POSITIVE_INFINITY, -3, "2", null, undefined, {}].map(clampBudget)).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);
  });
});

describe("parseGraderMode (muninn 62)", () => {
  it("accepts the three modes and rejects the rest, so the next layer decides", () => {
    expect(parseGraderMode("haiku")).toBe("haiku");
    expect(parseGraderMode("signal")).toBe("signal");
    expect(parseGraderMode("auto")).toBe("auto");
    expect(parseGraderMode(" HAIKU ")).toBe("haiku");
    expect(parseGraderMode(undefined)).toBeUndefined();
    expect(parseGraderMode("nonsense")).toBeUndefined();
    expect(parseGraderMode(3)).toBeUndefined();
  });
});

describe("resolveCorrectiveConfig", () => {
  it("is off, budget 1, signal grader by default (muninn 63)", () => {
    const r = resolveCorrectiveConfig({}, {});
    expect(core(r)).toEqual({ enabled: false, retryBudget: 1, grader: "signal" });
    expect(r.graderModel).toBe(DEFAULT_GRADER_MODEL);
    expect(r.graderTimeoutMs).toBe(DEFAULT_GRADER_TIMEOUT_MS);
    expect(r.source).toEqual({
      enabled: "default",
      retryBudget: "default",
      grader: "default",
      graderModel: "default",
      graderTimeoutMs: "default",
    });
    expect(core(resolveCorrectiveConfig(undefined, {}))).toEqual(core(r));
  });

  it("per-bot config enables it, clamps the budget and selects the grader (muninn 64)", () => {
    const r = resolveCorrectiveConfig({ enabled: true, retryBudget: 9, grader: "haiku" }, {});
    expect(core(r)).toEqual({ enabled: true, retryBudget: 2, grader: "haiku" });
    expect(r.source.enabled).toBe("bot");
    expect(r.source.retryBudget).toBe("bot");
  });

  it("global env defaults apply when the bot does not say otherwise (muninn 65)", () => {
    const env = {
      CORRECTIVE_RETRIEVAL_ENABLED: "true",
      CORRECTIVE_RETRIEVAL_BUDGET: "2",
      CORRECTIVE_RETRIEVAL_GRADER: "haiku",
    };
    const r = resolveCorrectiveConfig({}, env);
    expect(core(r)).toEqual({ enabled: true, retryBudget: 2, grader: "haiku" });
    expect(r.source).toMatchObject({ enabled: "env", retryBudget: "env", grader: "env" });
    expect(resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_ENABLED: "1" }).enabled).toBe(true);
  });

  it("per-bot config overrides the global default, disable wins too (muninn 66)", () => {
    const env = { CORRECTIVE_RETRIEVAL_ENABLED: "true", CORRECTIVE_RETRIEVAL_GRADER: "haiku" };
    const r = resolveCorrectiveConfig({ enabled: false, grader: "signal" }, env);
    expect(core(r)).toEqual({ enabled: false, retryBudget: 1, grader: "signal" });
    expect(r.source.enabled).toBe("bot");
    expect(describeCorrective(r)).toBe(
      "correctiveRetrieval: off (disabled in config: correctiveRetrieval.enabled is false)",
    );
  });

  it("the kill-switch overrides everything (muninn 67)", () => {
    const env = {
      CORRECTIVE_RETRIEVAL_DISABLED: "1",
      CORRECTIVE_RETRIEVAL_ENABLED: "true",
      CORRECTIVE_RETRIEVAL_BUDGET: "2",
      CORRECTIVE_RETRIEVAL_GRADER: "haiku",
    };
    const r = resolveCorrectiveConfig({ enabled: true, retryBudget: 2, grader: "haiku" }, env);
    expect(core(r)).toEqual({ enabled: false, retryBudget: 1, grader: "signal" });
    expect(r.source).toMatchObject({
      enabled: "kill-switch",
      retryBudget: "kill-switch",
      grader: "kill-switch",
    });
    expect(describeCorrective(r)).toBe(
      "correctiveRetrieval: off (kill-switch: CORRECTIVE_RETRIEVAL_DISABLED is set)",
    );
  });

  it("the kill-switch is on for 1/true/yes/on (any case), off for 0/false/no/off or unset", () => {
    for (const value of ["1", "true", "TRUE", "yes", "On", " on "]) {
      expect(isKillSwitchOn({ CORRECTIVE_RETRIEVAL_DISABLED: value }), value).toBe(true);
    }
    for (const value of ["0", "false", "", "no", "OFF", undefined]) {
      expect(isKillSwitchOn({ CORRECTIVE_RETRIEVAL_DISABLED: value }), String(value)).toBe(false);
    }
    expect(
      resolveCorrectiveConfig({ enabled: true }, { CORRECTIVE_RETRIEVAL_DISABLED: "true" }).enabled,
    ).toBe(false);
  });

  it("a bare global enable defaults the budget to 1 and the grader to signal (muninn 68)", () => {
    const r = resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_ENABLED: "true" });
    expect(core(r)).toEqual({ enabled: true, retryBudget: 1, grader: "signal" });
    expect(r.source).toMatchObject({ enabled: "env", retryBudget: "default", grader: "default" });
    expect(describeCorrective(r)).toBe("correctiveRetrieval: on (grader=signal, budget=1)");
  });

  it("ignores invalid env values", () => {
    const env = {
      CORRECTIVE_RETRIEVAL_ENABLED: "yes please",
      CORRECTIVE_RETRIEVAL_BUDGET: "lots",
      CORRECTIVE_RETRIEVAL_GRADER: "gpt",
    };
    const r = resolveCorrectiveConfig(undefined, env);
    expect(core(r)).toEqual({ enabled: false, retryBudget: 1, grader: "signal" });
    expect(r.source).toMatchObject({ enabled: "default", retryBudget: "default", grader: "default" });
    expect(resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_BUDGET: "" }).source.retryBudget).toBe(
      "default",
    );
  });

  it("clamps and parses the env budget like the bot's", () => {
    expect(resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_BUDGET: "7" }).retryBudget).toBe(2);
    expect(resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_BUDGET: "0" }).retryBudget).toBe(1);
    expect(resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_BUDGET: "2 retries" }).retryBudget).toBe(
      2,
    );
  });

  it("an explicit env disable is reported as such", () => {
    const r = resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_ENABLED: "0" });
    expect(r.enabled).toBe(false);
    expect(describeCorrective(r)).toBe(
      "correctiveRetrieval: off (disabled by env: CORRECTIVE_RETRIEVAL_ENABLED is false)",
    );
  });

  it("resolves field by field: the bot's grader with the env's budget", () => {
    const r = resolveCorrectiveConfig({ grader: "auto" }, { CORRECTIVE_RETRIEVAL_BUDGET: "2" });
    expect(core(r)).toEqual({ enabled: false, retryBudget: 2, grader: "auto" });
    expect(r.source).toMatchObject({ enabled: "default", retryBudget: "env", grader: "bot" });
    expect(describeCorrective(r)).toBe(
      "correctiveRetrieval: off (default: set correctiveRetrieval.enabled to true to turn it on)",
    );
  });

  it("takes the grader model, timeout and provider from the bot", () => {
    const provider = { type: "anthropic" as const, baseUrl: "https://api.anthropic.com", apiKeyEnv: "K" };
    const r = resolveCorrectiveConfig(
      { enabled: true, grader: "haiku", graderModel: "m", graderTimeoutMs: 500, graderProvider: provider },
      {},
    );
    expect(r).toMatchObject({ graderModel: "m", graderTimeoutMs: 500, graderProvider: provider });
    expect(r.source).toMatchObject({ graderModel: "bot", graderTimeoutMs: "bot" });
    expect(describeCorrective(r)).toBe("correctiveRetrieval: on (grader=haiku, budget=1)");
  });

  it("reads the env at call time, never caching it", () => {
    const env: NodeJS.ProcessEnv = {};
    const block = { enabled: true };
    expect(resolveCorrectiveConfig(block, env).enabled).toBe(true);
    env.CORRECTIVE_RETRIEVAL_DISABLED = "1";
    expect(resolveCorrectiveConfig(block, env).enabled).toBe(false);
    delete env.CORRECTIVE_RETRIEVAL_DISABLED;
    expect(resolveCorrectiveConfig(block, env).enabled).toBe(true);
  });

  it("defaults env to process.env", () => {
    const saved = process.env.CORRECTIVE_RETRIEVAL_DISABLED;
    process.env.CORRECTIVE_RETRIEVAL_DISABLED = "1";
    try {
      expect(resolveCorrectiveConfig({ enabled: true }).enabled).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.CORRECTIVE_RETRIEVAL_DISABLED;
      else process.env.CORRECTIVE_RETRIEVAL_DISABLED = saved;
    }
  });
});

describe("env values that are not understood", () => {
  function capture(): () => string[] {
    const messages: string[] = [];
    const stream = new Writable({
      write(chunk, _e, done) {
        for (const l of String(chunk).split("\n").filter(Boolean)) messages.push(JSON.parse(l).msg);
        done();
      },
    });
    setLogger(createLogger({ level: "warn", destination: stream }));
    return () => messages;
  }
  afterEach(() => setLogger(createLogger({ level: "silent" })));

  it("an unrecognised kill-switch value switches correction off, with one warning naming the variable", () => {
    const warnings = capture();
    const env = { CORRECTIVE_RETRIEVAL_DISABLED: "disable-it" };
    expect(resolveCorrectiveConfig({ enabled: true }, env).enabled).toBe(false);
    expect(resolveCorrectiveConfig({ enabled: true }, env).enabled).toBe(false);
    expect(warnings()).toEqual([
      'CORRECTIVE_RETRIEVAL_DISABLED="disable-it" is not understood; treated as on (correction off); use 1/true/yes/on or 0/false/no/off',
    ]);
  });

  it("unusable ENABLED, BUDGET and GRADER values are ignored with a warning naming each", () => {
    const warnings = capture();
    const r = resolveCorrectiveConfig(undefined, {
      CORRECTIVE_RETRIEVAL_ENABLED: "sure",
      CORRECTIVE_RETRIEVAL_BUDGET: "two",
      CORRECTIVE_RETRIEVAL_GRADER: "judge-model",
    });
    expect(core(r)).toEqual({ enabled: false, retryBudget: 1, grader: "signal" });
    const text = warnings().join("\n");
    expect(text).toContain('CORRECTIVE_RETRIEVAL_ENABLED="sure" is not understood; ignored');
    expect(text).toContain('CORRECTIVE_RETRIEVAL_BUDGET="two" is not understood; ignored');
    expect(text).toContain(
      'CORRECTIVE_RETRIEVAL_GRADER="judge-model" is not understood; ignored; use signal, haiku, auto',
    );
  });

  it("yes/on enable through CORRECTIVE_RETRIEVAL_ENABLED too", () => {
    expect(resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_ENABLED: "on" }).enabled).toBe(true);
    expect(resolveCorrectiveConfig(undefined, { CORRECTIVE_RETRIEVAL_ENABLED: "No" }).enabled).toBe(false);
  });
});
