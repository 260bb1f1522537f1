// auto (reference §5.4.7): single-pass when the document is small or has no pages, treewalk
// when it is paged and larger than the threshold.
import { type DocumentTree, hasPages, leafTokens } from "./document-tree.js";
import {
  availableTokens,
  type ContextBudget,
  emptyResult,
  type SelectOptions,
  type Strategy,
  type StrategyResult,
} from "./strategy.js";

export class AutoStrategy implements Strategy {
  readonly name = "auto";
  constructor(
    private readonly small: Strategy | undefined,
    private readonly large: Strategy | undefined,
    private readonly singlePassMaxTokens = 0,
  ) {}

  /** The branch this tree would take (undefined when both are missing). */
  route(tree: DocumentTree, budget: ContextBudget = {}): Strategy | undefined {
    if (!hasPages(tree)) return this.small ?? this.large;
    const threshold = this.singlePassMaxTokens > 0 ? this.singlePassMaxTokens : availableTokens(budget);
    const useSmall = threshold > 0 && leafTokens(tree) <= threshold;
    return useSmall ? (this.small ?? this.large) : (this.large ?? this.small);
  }

  async select(
    tree: DocumentTree,
    query: string,
    budget: ContextBudget = {},
    options?: SelectOptions,
  ): Promise<StrategyResult> {
    const branch = this.route(tree, budget);
    return branch ? branch.select(tree, query, budget, options) : emptyResult();
  }
}
