import * as z from "zod";
import { DEFAULT_SCHEMA, SCHEMA_NAME } from "../backends/postgres/pg-schema.js";
import { backendEntry, KNOWLEDGE_BACKENDS } from "../backends/registry.js";
import { CorrectiveRetrievalSchema } from "../corrective/corrective-config-schema.js";
import { DEADLINES } from "../deadline.js";
import {
  AUTO_LANGUAGE,
  analyzerNameOf,
  closestLanguage,
  SUPPORTED_LANGUAGES,
} from "../knowledge/analysis/registry.js";
import { templateProblem } from "../knowledge/document-links.js";
import { IngestLimitsSchema } from "../knowledge/index/ingest-limits.js";
import { ENV_VAR_NAME, httpUrl, nonEmpty, ProviderSchema, timeoutMs } from "../llm/provider-config.js";

// The schema of `bots/<name>/config.json` (docs/design.md §6). Every object is strict: an unknown key is
// an error, because a typo such as `correctiveRetrival` would otherwise silently leave a feature
// off. Option descriptions for the README live in config-options.ts, kept in step by a test.

/**
 * Collection names appear in tool arguments, index file names and log lines, so they are kept
 * to lowercase slugs: a letter or digit first, then letters, digits, `-` or `_`.
 */
export const COLLECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * A supported BCP-47 language tag, the name of an analyzer the program registered
 * (`registerAnalyzer`), or "auto"; anything else names the closest supported tag.
 */
const LanguageSetting = z.string().superRefine((value, ctx) => {
  if (value === AUTO_LANGUAGE || analyzerNameOf(value) !== undefined) return;
  ctx.addIssue({
    code: "custom",
    input: value,
    message: `"${value}" is not a supported language; did you mean "${closestLanguage(value)}"? (supported: ${SUPPORTED_LANGUAGES.join(", ")}, or "${AUTO_LANGUAGE}")`,
  });
});

/** An http(s) address with `{path}` where the document's path goes (src/knowledge/document-links.ts). */
const UrlTemplate = z.string().superRefine((value, ctx) => {
  const problem = templateProblem(value);
  if (problem) ctx.addIssue({ code: "custom", input: value, message: problem });
});

/** Where a collection's documents are published: a template, or one with extension rewriting and a root. */
export const CollectionUrlSchema = z.union([
  UrlTemplate,
  z.strictObject({
    template: UrlTemplate,
    extensions: z
      .record(
        z.string().regex(/^(\.[A-Za-z0-9]{1,16}){1,3}$/, {
          error: 'keys are file extensions with the dot, e.g. ".md" (or ".md.gz" for a compressed one)',
        }),
        z.string().regex(/^(\.[A-Za-z0-9]{1,16}|\/)?$/, {
          error:
            'values are what the page ends with instead: an extension such as ".html", "" to drop it, or "/"',
        }),
      )
      .optional(),
    root: nonEmpty.optional(),
  }),
]);

export const CollectionSchema = z.strictObject({
  paths: z.array(nonEmpty).min(1, { error: "needs at least one glob" }),
  exclude: z.array(nonEmpty).optional(),
  language: LanguageSetting.optional(),
  url: CollectionUrlSchema.optional(),
});
export type CollectionConfig = z.output<typeof CollectionSchema>;

/** knowledge.postgres.botId: named in SQL parameters, advisory-lock keys and log lines. */
export const BOT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const HuginnSchema = z.strictObject({
  url: httpUrl,
  collections: z.array(nonEmpty).min(1, { error: "needs at least one collection" }),
  timeoutMs: timeoutMs.optional(),
});
export type HuginnConfig = z.output<typeof HuginnSchema>;

export const PostgresSchema = z.strictObject({
  // The connection string may carry a password: config names the variable, never the value.
  urlEnv: z.string().regex(ENV_VAR_NAME, {
    error:
      "must be the NAME of the environment variable holding the connection string (e.g. SECOND_LOOK_DATABASE_URL)",
  }),
  schema: z
    .string()
    .regex(SCHEMA_NAME, {
      error: "must be a lowercase SQL identifier: a letter or _, then letters, digits or _",
    })
    .default(DEFAULT_SCHEMA),
  // The bot's key in a shared database; without it, the folder's name (src/backends/postgres/pg-bot-folder.ts).
  botId: z
    .string()
    .regex(BOT_ID, {
      error: "must be 1-64 characters: a letter or digit, then letters, digits, '.', '_' or '-'",
    })
    .optional(),
});
export type PostgresConfig = z.output<typeof PostgresSchema>;

export { KNOWLEDGE_BACKENDS };

export const KnowledgeSchema = z
  .strictObject({
    backend: z.enum(KNOWLEDGE_BACKENDS).default("embedded"),
    collections: z
      .record(
        z.string().regex(COLLECTION_NAME, {
          error: 'collection names are lowercase: a letter or digit, then letters, digits, "-" or "_"',
        }),
        CollectionSchema,
      )
      .default({}),
    // Both blocks may be present so that switching backends is a one-word change.
    huginn: HuginnSchema.optional(),
    postgres: PostgresSchema.optional(),
    // Bounds on parsing one file while indexing, embedded or postgres (time, memory, parser threads).
    ingest: IngestLimitsSchema.optional(),
  })
  .superRefine((knowledge, ctx) => {
    // What the chosen backend needs beyond this schema (src/backends/).
    for (const issue of backendEntry(knowledge.backend).settingsIssues(knowledge)) {
      ctx.addIssue({ code: "custom", path: issue.path, input: undefined, message: issue.message });
    }
    if (
      backendEntry(knowledge.backend).remoteServer === undefined &&
      Object.keys(knowledge.collections).length === 0
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["collections"],
        input: knowledge.collections,
        message: `backend "${knowledge.backend}" needs at least one collection, e.g. {"docs": {"paths": ["docs/**/*.md"]}}`,
      });
    }
  });
export type KnowledgeConfig = z.output<typeof KnowledgeSchema>;

export const RERANK_STRATEGIES = ["lexical", "single-pass"] as const;

export const DEEP_FALLBACKS = ["off", "auto", "treewalk", "agentic"] as const;

export const RetrievalSchema = z.strictObject({
  rerankStrategy: z.enum(RERANK_STRATEGIES).default("lexical"),
  planning: z.boolean().default(false),
  answerSpans: z.boolean().default(false),
  // Off unless asked for: each deep read is several model calls on every weak re-query.
  deepFallback: z.enum(DEEP_FALLBACKS).default("off"),
});
export type RetrievalConfig = z.output<typeof RetrievalSchema>;

/** Bounds on one conversation turn, so a looping model cannot run up cost or hang a host. */
export const SessionSchema = z.strictObject({
  maxToolCalls: z.number().int().positive().default(8),
  timeoutMs: timeoutMs.default(DEADLINES.sessionTurnMs),
});
export type SessionLimits = z.output<typeof SessionSchema>;

export const DEFAULT_PERSONA_FILE = "persona.md";

export const BotConfigSchema = z
  .strictObject({
    // Where an editor finds this schema as JSON Schema (config-json-schema.ts); not read otherwise.
    $schema: z.string().optional(),
    description: z.string().optional(),
    persona: nonEmpty.default(DEFAULT_PERSONA_FILE),
    model: nonEmpty.optional(),
    provider: ProviderSchema.optional(),
    knowledge: KnowledgeSchema,
    correctiveRetrieval: CorrectiveRetrievalSchema.optional(),
    retrieval: RetrievalSchema.prefault({}),
    session: SessionSchema.prefault({}),
  })
  .superRefine((config, ctx) => {
    // The Copilot runtime rejects a BYOK provider without a model name (docs/reference/copilot-sdk.md).
    if (config.provider !== undefined && config.model === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["model"],
        input: undefined,
        message: "is required when provider is set (the provider needs a model name to call)",
      });
    }
  });

/** A bot's config.json after validation, with defaults applied (correctiveRetrieval excepted). */
export type BotConfig = z.output<typeof BotConfigSchema>;
/** What a config.json may contain before defaults. */
export type BotConfigInput = z.input<typeof BotConfigSchema>;

export {
  type CorrectiveGrader,
  CorrectiveRetrievalSchema,
  GRADER_MODES,
} from "../corrective/corrective-config-schema.js";
export { PROVIDER_TYPES, type ProviderConfig, ProviderSchema } from "../llm/provider-config.js";
