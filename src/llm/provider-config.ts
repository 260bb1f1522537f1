import * as z from "zod";
import { MAX_TIMER_MS } from "../deadline.js";

// The schema of a model endpoint in a bot's config.json (`provider`, `correctiveRetrieval.graderProvider`).
// It lives with the clients that use it so that llm/ depends on nothing above it.

/** An environment variable name, POSIX style. */
export const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const nonEmpty = z.string().min(1, { error: "must not be empty" });
/**
 * A time bound in milliseconds: a positive integer no larger than a timer can wait (2^31 − 1 ms,
 * about 24.8 days). Node fires longer timers after 1 ms, which would silently turn the bound
 * into "fail at once", so such a value is refused with the reason.
 */
export const timeoutMs = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMER_MS, {
    error: `must be at most ${MAX_TIMER_MS} ms (2^31 − 1, the longest timer Node can wait)`,
  });
export const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

export const PROVIDER_TYPES = ["openai", "anthropic", "azure"] as const;

/** A BYOK model endpoint. The key itself never appears in config: only the env var holding it. */
export const ProviderSchema = z.strictObject({
  type: z.enum(PROVIDER_TYPES),
  baseUrl: httpUrl,
  /** Optional because local OpenAI-compatible servers (Ollama, vLLM) take no key. */
  apiKeyEnv: z
    .string()
    .regex(ENV_VAR_NAME, {
      error: "must be the NAME of the environment variable holding the key (e.g. ANTHROPIC_API_KEY)",
    })
    .optional(),
  wireModel: nonEmpty.optional(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type ProviderConfig = z.output<typeof ProviderSchema>;
