import type { LlmClient } from "../../llm/llm-client.js";
import {
  type ContextBudget,
  emptyResult,
  type SelectOptions,
  type Strategy,
  type StrategyResult,
} from "../strategy.js";
import type { DocumentTree } from "../tree/document-tree.js";

/** One selection's inputs, the budget and options defaulted. */
export interface TreeSelection {
  tree: DocumentTree;
  query: string;
  budget: ContextBudget;
  options: SelectOptions;
}

/**
 * A strategy that asks the model to select sections. An empty tree selects nothing without a
 * model call, so each strategy's own selection only ever sees a tree with a root.
 */
export abstract class ModelStrategy implements Strategy {
  abstract readonly name: string;

  constructor(protected readonly llm: LlmClient) {}

  select(
    tree: DocumentTree,
    query: string,
    budget: ContextBudget = {},
    options: SelectOptions = {},
  ): Promise<StrategyResult> {
    if (!tree.root) return Promise.resolve(emptyResult());
    return this.selectFromTree({ tree, query, budget, options });
  }

  protected abstract selectFromTree(selection: TreeSelection): Promise<StrategyResult>;
}
