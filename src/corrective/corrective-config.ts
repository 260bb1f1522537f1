import { DEADLINES } from "../deadline.js";
import type { ProviderConfig } from "../llm/provider-config.js";
import { logger } from "../telemetry/logger.js";
import { type CorrectiveGrader, GRADER_MODES } from "./corrective-config-schema.js";

// Resolution of a bot's corrective-retrieval settings (docs/design.md §6), field by field:
//   CORRECTIVE_RETRIEVAL_DISABLED   ops kill-switch; "1", "true", "yes" or "on" (any case) turns
//                                   the feature off for every bot, whatever its config says; any
//                                   other value but "0"/"false"/"no"/"off" too, with a warning
//   the bot's correctiveRetrieval block
//   CORRECTIVE_RETRIEVAL_ENABLED    "true"/"1"/"yes"/"on" → on, "false"/"0"/"no"/"off" → off (any
//                                   case); anything else ignored with a warning
//   CORRECTIVE_RETRIEVAL_BUDGET     parseInt, clamped to 1..2; no leading number: ignored, warning
//   CORRECTIVE_RETRIEVAL_GRADER     signal | haiku | auto; anything else ignored with a warning
// Each warning names the variable and its value, once per value (the env is read per session).
//   built-in defaults               off, budget 1, grader signal
// The env is read on every call, never cached, so flipping the kill-switch needs no code change
// and takes effect at the next session.

export const DEFAULT_GRADER_MODEL = "claude-haiku-4-5";
export const DEFAULT_GRADER_TIMEOUT_MS = DEADLINES.graderMs;

export const CORRECTIVE_ENV = {
  disabled: "CORRECTIVE_RETRIEVAL_DISABLED",
  enabled: "CORRECTIVE_RETRIEVAL_ENABLED",
  budget: "CORRECTIVE_RETRIEVAL_BUDGET",
  grader: "CORRECTIVE_RETRIEVAL_GRADER",
} as const;

export type RetryBudget = 1 | 2;
export type CorrectiveSource = "kill-switch" | "bot" | "env" | "default";

/** The block as written in config.json; tolerant of unvalidated input (every field is checked). */
export interface CorrectiveBlock {
  enabled?: unknown;
  retryBudget?: unknown;
  grader?: unknown;
  graderModel?: unknown;
  graderTimeoutMs?: unknown;
  graderProvider?: ProviderConfig;
}

export interface ResolvedCorrectiveConfig {
  enabled: boolean;
  retryBudget: RetryBudget;
  grader: CorrectiveGrader;
  graderModel: string;
  graderTimeoutMs: number;
  /** The grader's own endpoint, when the bot configured one; else the grader uses the bot's. */
  graderProvider?: ProviderConfig;
  /** Where each value came from, for logs and `second-look bots`. */
  source: {
    enabled: CorrectiveSource;
    retryBudget: CorrectiveSource;
    grader: CorrectiveSource;
    graderModel: CorrectiveSource;
    graderTimeoutMs: CorrectiveSource;
  };
}

/** Budget 1 or 2: floors, clamps, and turns anything that is not a finite number into 1. */
export function clampBudget(n: unknown): RetryBudget {
  if (typeof n !== "number" || !Number.isFinite(n)) return 1;
  return Math.max(1, Math.min(2, Math.floor(n))) as RetryBudget;
}

/** A grader mode, or undefined for anything else (so the next layer decides). */
export function parseGraderMode(value: unknown): CorrectiveGrader | undefined {
  const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  return GRADER_MODES.find((mode) => mode === text);
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);
const warned = new Set<string>();

/** One warning per variable and value, however often the env is read. */
function warnEnv(variable: string, value: string, consequence: string): void {
  const key = `${variable}=${value}`;
  if (warned.has(key)) return;
  warned.add(key);
  logger().warn(
    { variable, value },
    `${variable}=${JSON.stringify(value)} is not understood; ${consequence}`,
  );
}

/**
 * An on/off variable's value; one that is neither is "unrecognised", and warned about once with
 * what follows from it (`consequence`).
 */
function envFlag(
  env: NodeJS.ProcessEnv,
  variable: string,
  consequence: string,
): boolean | "unrecognised" | undefined {
  const raw = env[variable];
  if (raw === undefined) return undefined;
  const text = raw.trim().toLowerCase();
  if (text === "") return undefined;
  if (TRUE_WORDS.has(text)) return true;
  if (FALSE_WORDS.has(text)) return false;
  warnEnv(variable, raw, consequence);
  return "unrecognised";
}

/**
 * True when the ops kill-switch CORRECTIVE_RETRIEVAL_DISABLED is on ("1", "true", "yes", "on").
 * A value that is neither on nor off ("disable", "y") also turns it on, with a warning: whoever
 * set the kill-switch meant to switch the feature off.
 */
export function isKillSwitchOn(env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = envFlag(
    env,
    CORRECTIVE_ENV.disabled,
    "treated as on (correction off); use 1/true/yes/on or 0/false/no/off",
  );
  if (flag === "unrecognised") return true;
  return flag === true;
}

function envBudget(env: NodeJS.ProcessEnv): RetryBudget | undefined {
  const value = env[CORRECTIVE_ENV.budget];
  if (value === undefined || value.trim() === "") return undefined;
  if (!/^\s*[+-]?\d/.test(value)) {
    warnEnv(CORRECTIVE_ENV.budget, value, "ignored; use 1 or 2");
    return undefined;
  }
  return clampBudget(Number.parseInt(value, 10));
}

function envGrader(env: NodeJS.ProcessEnv): CorrectiveGrader | undefined {
  const value = env[CORRECTIVE_ENV.grader];
  if (value === undefined || value.trim() === "") return undefined;
  const mode = parseGraderMode(value);
  if (mode === undefined) warnEnv(CORRECTIVE_ENV.grader, value, `ignored; use ${GRADER_MODES.join(", ")}`);
  return mode;
}

/** Resolve a bot's corrective settings against the env, now. Call it when a session is created. */
export function resolveCorrectiveConfig(
  block: CorrectiveBlock | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedCorrectiveConfig {
  const bot = block ?? {};
  const graderModel =
    typeof bot.graderModel === "string" && bot.graderModel !== "" ? bot.graderModel : undefined;
  const graderTimeoutMs =
    typeof bot.graderTimeoutMs === "number" && Number.isFinite(bot.graderTimeoutMs) && bot.graderTimeoutMs > 0
      ? bot.graderTimeoutMs
      : undefined;
  const graderFields = {
    graderModel: graderModel ?? DEFAULT_GRADER_MODEL,
    graderTimeoutMs: graderTimeoutMs ?? DEFAULT_GRADER_TIMEOUT_MS,
    ...(bot.graderProvider !== undefined ? { graderProvider: bot.graderProvider } : {}),
  };
  const graderSources = {
    graderModel: graderModel !== undefined ? ("bot" as const) : ("default" as const),
    graderTimeoutMs: graderTimeoutMs !== undefined ? ("bot" as const) : ("default" as const),
  };

  if (isKillSwitchOn(env)) {
    // Off with the built-in budget and grader, so nothing downstream can read a live setting.
    return {
      enabled: false,
      retryBudget: 1,
      grader: "signal",
      ...graderFields,
      source: { enabled: "kill-switch", retryBudget: "kill-switch", grader: "kill-switch", ...graderSources },
    };
  }

  let enabled = false;
  let enabledSource: CorrectiveSource = "default";
  const enabledFlag = envFlag(env, CORRECTIVE_ENV.enabled, "ignored; use true/false (1/0, yes/no, on/off)");
  const envEnabled = enabledFlag === "unrecognised" ? undefined : enabledFlag;
  if (typeof bot.enabled === "boolean") [enabled, enabledSource] = [bot.enabled, "bot"];
  else if (envEnabled !== undefined) [enabled, enabledSource] = [envEnabled, "env"];

  let retryBudget: RetryBudget = 1;
  let budgetSource: CorrectiveSource = "default";
  const budgetFromEnv = envBudget(env);
  if (bot.retryBudget !== undefined) [retryBudget, budgetSource] = [clampBudget(bot.retryBudget), "bot"];
  else if (budgetFromEnv !== undefined) [retryBudget, budgetSource] = [budgetFromEnv, "env"];

  let grader: CorrectiveGrader = "signal";
  let graderSource: CorrectiveSource = "default";
  const botGrader = parseGraderMode(bot.grader);
  const graderFromEnv = envGrader(env);
  if (botGrader !== undefined) [grader, graderSource] = [botGrader, "bot"];
  else if (graderFromEnv !== undefined) [grader, graderSource] = [graderFromEnv, "env"];

  return {
    enabled,
    retryBudget,
    grader,
    ...graderFields,
    source: { enabled: enabledSource, retryBudget: budgetSource, grader: graderSource, ...graderSources },
  };
}

/** Why the pass is off, by where "off" came from: the reason, its detail, and what turns it on. */
const OFF: Record<
  CorrectiveSource,
  {
    /** The reason as `describeCorrective` names it. */
    why: string;
    /** The reason as the owner's note names it. */
    whyInNote: string;
    detail: string;
    turnOn: (configFile: string) => string;
  }
> = {
  "kill-switch": {
    why: "kill-switch",
    whyInNote: "kill-switch",
    detail: `${CORRECTIVE_ENV.disabled} is set`,
    turnOn: () => `unset ${CORRECTIVE_ENV.disabled} to turn it on`,
  },
  bot: {
    why: "disabled in config",
    whyInNote: "disabled in config",
    detail: "correctiveRetrieval.enabled is false",
    turnOn: (file) => `set correctiveRetrieval.enabled to true in ${file} to turn it on`,
  },
  env: {
    why: "disabled by env",
    whyInNote: "disabled by env",
    detail: `${CORRECTIVE_ENV.enabled} is false`,
    turnOn: (file) =>
      `unset ${CORRECTIVE_ENV.enabled}, or set correctiveRetrieval.enabled to true in ${file}, to turn it on`,
  },
  default: {
    why: "default",
    whyInNote: "the default",
    detail: "set correctiveRetrieval.enabled to true to turn it on",
    turnOn: (file) =>
      `add "correctiveRetrieval": {"enabled": true, "grader": "signal"} to ${file} to turn it on`,
  },
};

/** `correctiveRetrieval: on (grader=signal, budget=1)` or `correctiveRetrieval: off (<why and the key>)`. */
export function describeCorrective(resolved: ResolvedCorrectiveConfig): string {
  if (resolved.enabled) {
    return `correctiveRetrieval: on (grader=${resolved.grader}, budget=${resolved.retryBudget})`;
  }
  const { why, detail } = OFF[resolved.source.enabled];
  return `correctiveRetrieval: off (${why}: ${detail})`;
}

/**
 * One line for a bot's owner when its corrective pass is off — where they look (`bots`, `index`,
 * `search`): what is off, why, and the key that turns it on. Undefined when the pass is on.
 */
export function correctiveOffNote(bot: {
  name: string;
  configFile: string;
  corrective: ResolvedCorrectiveConfig;
}): string | undefined {
  if (bot.corrective.enabled) return undefined;
  const { whyInNote, turnOn } = OFF[bot.corrective.source.enabled];
  return `bot ${bot.name}: correctiveRetrieval is off (${whyInNote}), so weak searches are not re-queried; ${turnOn(bot.configFile)}`;
}
