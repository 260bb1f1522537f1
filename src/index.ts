// `second-look`: a bot from its folder, its knowledge backend, and the corrective pass over a
// search tool's result. Narrower entry points: `second-look/engine` (the in-process engine and
// the Huginn client), `second-look/corrective` (graders and the orchestrator),
// `second-look/knowledge-tool` (the tool-result text and the tools' argument schemas) and
// `second-look/copilot-sdk` (the Copilot SDK connector; the only entry that loads the SDK).
//
// The asynchronous functions here load their modules on first call, so `import "second-look"`
// costs little (bench/imports.bench.ts measures it): a hook that only corrects tool results never
// loads bot discovery, the engine or the tracing SDK.

import type { BotsErrorCode } from "./bots/config-error.js";
import type * as Discovery from "./bots/discovery.js";
import type { CliErrorCode } from "./cli/cli-error.js";
import type { ConnectorsErrorCode } from "./connectors/connectors-error.js";
import type * as BackendOpening from "./connectors/open-bot-backend.js";
import type * as Correction from "./corrective/correct-tool-result.js";
import type { CorrectiveErrorCode } from "./corrective/corrective-error.js";
import type { DeadlineErrorCode } from "./deadline.js";
import type { ErrorLayer } from "./errors.js";
import type { EvaluationErrorCode } from "./evaluation/evaluation-error.js";
import type { HostsErrorCode } from "./hosts/hosts-error.js";
import type { KnowledgeErrorCode } from "./knowledge/knowledge-error.js";
import type { LlmErrorCode } from "./llm/llm-error.js";
import type { StrategiesErrorCode } from "./strategies/strategies-error.js";
import type * as Tracing from "./telemetry/capture-spans.js";
import type { TelemetryErrorCode } from "./telemetry/telemetry-error.js";

export type { BotDefinition } from "./bots/discovery.js";
export type { OpenedBackend } from "./connectors/open-bot-backend.js";
export type {
  CorrectedToolResult,
  CorrectiveContext,
  ToolResultCall,
} from "./corrective/correct-tool-result.js";
export { type ResolvedCorrectiveConfig, resolveCorrectiveConfig } from "./corrective/corrective-config.js";
export { type ErrorLayer, errorMessage, SecondLookError } from "./errors.js";
export type {
  BotsErrorCode,
  CliErrorCode,
  ConnectorsErrorCode,
  CorrectiveErrorCode,
  DeadlineErrorCode,
  EvaluationErrorCode,
  HostsErrorCode,
  KnowledgeErrorCode,
  LlmErrorCode,
  StrategiesErrorCode,
  TelemetryErrorCode,
};

/** Each layer's error codes (docs/errors.md): `error.code` of a SecondLookError whose `layer` is the key. */
export interface LayerErrorCodes {
  deadline: DeadlineErrorCode;
  telemetry: TelemetryErrorCode;
  llm: LlmErrorCode;
  knowledge: KnowledgeErrorCode;
  corrective: CorrectiveErrorCode;
  strategies: StrategiesErrorCode;
  bots: BotsErrorCode;
  connectors: ConnectorsErrorCode;
  hosts: HostsErrorCode;
  evaluation: EvaluationErrorCode;
  cli: CliErrorCode;
}

/** Every code a SecondLookError of this library can carry. */
export type ErrorCode = LayerErrorCodes[ErrorLayer];
export { registerAnalyzer } from "./knowledge/analysis/own-analyzers.js";
// The analyzer toolkit: a tokenizer and filters, composed by TextAnalyzer (docs/languages.md).
export * from "./knowledge/analysis/text-analyzer.js";
export { type CreateLlmClientOptions, createLlmClient } from "./llm/create-llm-client.js";
export type { LlmClient } from "./llm/llm-client.js";
export { LlmError } from "./llm/llm-error.js";
export type { SpanCapture } from "./telemetry/capture-spans.js";
export { type LogEntry, type LogFunction, setLogFunction, setLogger } from "./telemetry/logger.js";
export type * from "./types.js";

export const discoverBots: typeof Discovery.discoverBots = async (...args) =>
  (await import("./bots/discovery.js")).discoverBots(...args);

export const loadBot: typeof Discovery.loadBot = async (...args) =>
  (await import("./bots/discovery.js")).loadBot(...args);

export const openBotBackend: typeof BackendOpening.openBotBackend = async (...args) =>
  (await import("./connectors/open-bot-backend.js")).openBotBackend(...args);

export const correctToolResult: typeof Correction.correctToolResult = async (...args) =>
  (await import("./corrective/correct-tool-result.js")).correctToolResult(...args);

export const startTracing: typeof Tracing.startTracing = async (...args) =>
  (await import("./telemetry/capture-spans.js")).startTracing(...args);
