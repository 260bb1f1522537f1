import type { RunLimits, StopReason } from "./select/model-turns.js";
import type { StrategyUsage } from "./select/usage.js";
import type { DocumentTree } from "./tree/document-tree.js";

export interface ContextBudget {
  /** The model to ask (the client's default when absent). */
  modelName?: string;
  /** Context window the prompts must fit (default 100 000). */
  maxTokens?: number;
  /** Kept free for the instructions and the reply (default 4 000). */
  reservedForPrompt?: number;
  /** Concurrent calls of a fan-out (default 8). */
  maxParallelCalls?: number;
}

export const DEFAULT_BUDGET = { maxTokens: 100_000, reservedForPrompt: 4_000, maxParallelCalls: 8 } as const;

export function availableTokens(budget: ContextBudget): number {
  return Math.max(
    0,
    (budget.maxTokens ?? DEFAULT_BUDGET.maxTokens) -
      (budget.reservedForPrompt ?? DEFAULT_BUDGET.reservedForPrompt),
  );
}

export interface PagesRead {
  startPage: number;
  endPage: number;
  sectionIds: string[];
  charCount: number;
}

export interface StrategyResult {
  selectedIds: string[];
  /** id → [0,1] for selected ids; null when the model gave no confidence. */
  confidences: Map<string, number> | null;
  /** agentic: the model's reasoning; treewalk: the answer; cached: "cached". */
  reasoning?: string;
  modelUsed?: string;
  usage: StrategyUsage;
  /** single-pass and chunked-tree: 1; loops: turns taken, the terminal one included. */
  hopsTaken: number;
  traceToken?: string;
  /** treewalk only. */
  pagesRead?: PagesRead[];
  citedPages?: [number, number][];
  confidence?: number;
  /** Set when the run stopped early on a bound (time, tokens, abort) rather than by choice. */
  stopped?: StopReason | "hops";
}

export interface SelectOptions extends RunLimits {}

export interface Strategy {
  readonly name: string;
  /**
   * Sections of the tree that answer the query. Malformed model output gives an empty
   * selection; a failed model call rejects with a StrategyError (callers fall back).
   */
  select(
    tree: DocumentTree,
    query: string,
    budget?: ContextBudget,
    options?: SelectOptions,
  ): Promise<StrategyResult>;
}

export function emptyResult(usage?: StrategyUsage): StrategyResult {
  return {
    selectedIds: [],
    confidences: null,
    usage: usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0, llmCalls: 0 },
    hopsTaken: 0,
  };
}
