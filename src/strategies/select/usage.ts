// What a strategy run spent, summed over every model call it made.

export interface StrategyUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  llmCalls: number;
}

export function zeroUsage(): StrategyUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, llmCalls: 0 };
}

export function addUsage(into: StrategyUsage, add: Partial<StrategyUsage>): StrategyUsage {
  into.inputTokens += add.inputTokens ?? 0;
  into.outputTokens += add.outputTokens ?? 0;
  into.totalTokens += add.totalTokens ?? (add.inputTokens ?? 0) + (add.outputTokens ?? 0);
  into.llmCalls += add.llmCalls ?? 0;
  return into;
}
