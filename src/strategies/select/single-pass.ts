// single-pass (docs/reference/vectorless-strategies.md §5.1): one selection call over the whole outline.
import type { StrategyResult } from "../strategy.js";
import { buildView, type DocumentTree } from "../tree/document-tree.js";
import { outlineText } from "../tree/outline-lines.js";
import { filterKnownIds, knownIds, runSelection } from "../tree/selection.js";
import { ModelStrategy, type TreeSelection } from "./model-strategy.js";
import { ModelTurns } from "./model-turns.js";
import { computeTraceToken } from "./trace-token.js";

export class SinglePassStrategy extends ModelStrategy {
  readonly name = "single-pass";

  protected async selectFromTree({ tree, query, budget, options }: TreeSelection): Promise<StrategyResult> {
    const views = buildView(tree).filter((v) => v.id !== "");
    const turns = new ModelTurns(this.llm, options);
    const model = budget.modelName;
    const selection = filterKnownIds(
      await runSelection(
        turns,
        { breadcrumb: `Document: ${tree.title}`, outline: outlineText(views, depthOffsetOf(tree)), query },
        model,
        "single-pass",
      ),
      knownIds(views),
    );
    const modelUsed = model ?? turns.modelUsed;
    const stopped = turns.stopped();
    return {
      selectedIds: selection.ids,
      confidences: selection.confidences,
      modelUsed,
      usage: turns.usage,
      hopsTaken: 1,
      traceToken: computeTraceToken(tree.documentId, "1", modelUsed, selection.ids),
      ...(stopped && selection.ids.length === 0 ? { stopped } : {}),
    };
  }
}

/** A synthetic root is not shown, so its children are written at depth 0. */
export function depthOffsetOf(tree: DocumentTree): number {
  return tree.root?.id === "" ? 1 : 0;
}
