// The decomposer (reference §7.2): a multi-hop plan runs the strategy once per sub-question,
// in plan order, and unions the selections; anything else runs it once on the original query.
// The first failing sub-question stops the loop; what was gathered so far travels with the error.
import { errorMessage, SecondLookError } from "../errors.js";
import type { DocumentTree } from "./document-tree.js";
import type { QueryPlan } from "./planner.js";
import type { ContextBudget, SelectOptions, Strategy, StrategyResult } from "./strategy.js";
import { addUsage, type StrategyUsage, zeroUsage } from "./usage.js";

export class DecomposeError extends SecondLookError {
  constructor(
    message: string,
    readonly partial: {
      selectedIds: string[];
      confidences: Map<string, number> | null;
      usage: StrategyUsage;
    },
    options?: { cause?: unknown },
  ) {
    super("strategies", "decompose", message, options);
    this.name = "DecomposeError";
  }
}

export async function decomposeAndSelect(
  strategy: Strategy | undefined,
  tree: DocumentTree,
  query: string,
  plan: QueryPlan | null,
  budget: ContextBudget = {},
  options: SelectOptions = {},
): Promise<StrategyResult> {
  if (!strategy) throw new Error("decompose: no strategy");
  const subs = plan?.isMultiHop ? (plan.subQuestions ?? []) : [];
  if (subs.length === 0) return strategy.select(tree, query, budget, options);

  const ids: string[] = [];
  const confidences = new Map<string, number>();
  const usage = zeroUsage();
  let hops = 0;
  for (const sub of subs) {
    let result: StrategyResult;
    try {
      result = await strategy.select(tree, sub, budget, options);
    } catch (error) {
      const spent = (error as { usage?: StrategyUsage }).usage;
      if (spent) addUsage(usage, spent);
      throw new DecomposeError(
        `decompose "${sub}": ${errorMessage(error)}`,
        { selectedIds: ids, confidences: confidences.size > 0 ? confidences : null, usage },
        { cause: error },
      );
    }
    addUsage(usage, result.usage);
    hops += result.hopsTaken;
    for (const id of result.selectedIds) if (!ids.includes(id)) ids.push(id);
    for (const [id, c] of result.confidences ?? [])
      confidences.set(id, Math.max(c, confidences.get(id) ?? 0));
  }
  return { selectedIds: ids, confidences: confidences.size > 0 ? confidences : null, usage, hopsTaken: hops };
}
