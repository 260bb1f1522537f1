import type { ProviderConfig } from "../llm/provider-config.js";
import { type CorrectiveGrader, GRADER_MODES } from "./corrective-config-schema.js";

// Resolution of a bot's corrective-retrieval settings (docs/design.md §6), field by field:
//   CORRECTIVE_RETRIEVAL_DISABLED   ops kill-switch; "1" or "true" (any case) turns the feature
//                                   off for every bot, whatever its config says
//   the bot's correctiveRetrieval block
//   CORRECTIVE_RETRIEVAL_ENABLED    "true"/"1" → on, "false"/"0" → off (any case); else ignored
//   CORRECTIVE_RETRIEVAL_BUDGET     parseInt; NaN ignored; clamped to 1..2
//   CORRECTIVE_RETRIEVAL_GRADER     signal | haiku | auto; anything else ignored
//   built-in defaults               off, budget 1, grader signal
// The env is read on every call, never cached, so flipping the kill-switch needs no code change
// and takes effect at the next session.

export const DEFAULT_GRADER_MODEL = "claude-haiku-4-5";
export const DEFAULT_GRADER_TIMEOUT_MS = 8000;

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

function envFlag(value: string | undefined): boolean | undefined {
  const text = value?.trim().toLowerCase();
  if (text === "true" || text === "1") return true;
  if (text === "false" || text === "0") return false;
  return undefined;
}

/** True when the ops kill-switch CORRECTIVE_RETRIEVAL_DISABLED is set to "1" or "true". */
export function isKillSwitchOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return envFlag(env[CORRECTIVE_ENV.disabled]) === true;
}

function envBudget(value: string | undefined): RetryBudget | undefined {
  if (value === undefined) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isNaN(n) ? undefined : clampBudget(n);
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
  const envEnabled = envFlag(env[CORRECTIVE_ENV.enabled]);
  if (typeof bot.enabled === "boolean") [enabled, enabledSource] = [bot.enabled, "bot"];
  else if (envEnabled !== undefined) [enabled, enabledSource] = [envEnabled, "env"];

  let retryBudget: RetryBudget = 1;
  let budgetSource: CorrectiveSource = "default";
  const budgetFromEnv = envBudget(env[CORRECTIVE_ENV.budget]);
  if (bot.retryBudget !== undefined) [retryBudget, budgetSource] = [clampBudget(bot.retryBudget), "bot"];
  else if (budgetFromEnv !== undefined) [retryBudget, budgetSource] = [budgetFromEnv, "env"];

  let grader: CorrectiveGrader = "signal";
  let graderSource: CorrectiveSource = "default";
  const botGrader = parseGraderMode(bot.grader);
  const envGrader = parseGraderMode(env[CORRECTIVE_ENV.grader]);
  if (botGrader !== undefined) [grader, graderSource] = [botGrader, "bot"];
  else if (envGrader !== undefined) [grader, graderSource] = [envGrader, "env"];

  return {
    enabled,
    retryBudget,
    grader,
    ...graderFields,
    source: { enabled: enabledSource, retryBudget: budgetSource, grader: graderSource, ...graderSources },
  };
}

const OFF_REASONS: Record<CorrectiveSource, string> = {
  "kill-switch": "kill-switch",
  bot: "disabled in config",
  env: "disabled by env",
  default: "default",
};

/** `correctiveRetrieval: on (grader=signal, budget=1)` or `correctiveRetrieval: off (<why>)`. */
export function describeCorrective(resolved: ResolvedCorrectiveConfig): string {
  if (resolved.enabled) {
    return `correctiveRetrieval: on (grader=${resolved.grader}, budget=${resolved.retryBudget})`;
  }
  return `correctiveRetrieval: off (${OFF_REASONS[resolved.source.enabled]})`;
}
