import * as z from "zod";
import { nonEmpty, ProviderSchema, timeoutMs } from "../llm/provider-config.js";

// The `correctiveRetrieval` block of a bot's config.json; resolution against the environment is in
// corrective-config.ts.

export const GRADER_MODES = ["signal", "haiku", "auto"] as const;
export type CorrectiveGrader = (typeof GRADER_MODES)[number];

/**
 * No defaults here on purpose: a field the bot leaves out falls through to the env defaults
 * (CORRECTIVE_RETRIEVAL_*), which resolveCorrectiveConfig reads when a session is created.
 */
export const CorrectiveRetrievalSchema = z.strictObject({
  enabled: z.boolean().optional(),
  /** Any number is accepted and clamped to 1..2 at resolution (docs/design.md §5). */
  retryBudget: z.number().optional(),
  grader: z.enum(GRADER_MODES).optional(),
  graderModel: nonEmpty.optional(),
  graderTimeoutMs: timeoutMs.optional(),
  graderProvider: ProviderSchema.optional(),
});
export type CorrectiveRetrievalConfig = z.output<typeof CorrectiveRetrievalSchema>;
