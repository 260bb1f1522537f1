// The strategies' public surface (re-exports only).

export { type AgenticOptions, AgenticStrategy } from "./agentic.js";
export { extractAnswerSpan, type SpanOptions } from "./answer-span.js";
export { attachAnswerSpans } from "./attach-answer-spans.js";
export { AutoStrategy } from "./auto-strategy.js";
export { CachedStrategy } from "./cached-strategy.js";
export { ChunkedTreeStrategy } from "./chunked-tree.js";
export {
  answerWithCitations,
  type Citation,
  type CitedAnswer,
  type CitedAnswerOptions,
  NO_SOURCES_ANSWER,
} from "./cited-answer.js";
export { DecomposeError, decomposeAndSelect } from "./decomposer.js";
export { buildView, type DocumentTree, type TreeSection, treeFromDoc } from "./document-tree.js";
export { locateQuote } from "./locate-quote.js";
export { type RunLimits, StrategyError } from "./model-turns.js";
export { Planner, type QueryPlan } from "./planner.js";
export { rerankHitsSinglePass } from "./rerank-hits.js";
export { SinglePassStrategy } from "./single-pass.js";
export { type RetrievalSettings, strategicBackend, strategiesActive } from "./strategic-backend.js";
export type { ContextBudget, Strategy, StrategyResult } from "./strategy.js";
export { computeTraceToken } from "./trace-token.js";
export { type TreeWalkOptions, TreeWalkStrategy } from "./treewalk.js";
