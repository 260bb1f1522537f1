// chunked-tree (reference §5.2): the outline in budget-sized slices, one selection call per
// slice with bounded concurrency, ids checked against their own slice, results merged.
//
// Decided differently from the reference: merged ids come in document order (the reference
// sorts them as strings, which puts sec_10 before sec_2), and model_used is filled in.
import type { LlmClient } from "../llm/llm-client.js";
import { buildView, type DocumentTree } from "./document-tree.js";
import { ModelTurns } from "./model-turns.js";
import { outlineText } from "./outline-lines.js";
import { filterKnownIds, knownIds, runSelection, type Selection } from "./selection.js";
import { splitIntoSlices } from "./slice-splitter.js";
import {
  availableTokens,
  type ContextBudget,
  DEFAULT_BUDGET,
  emptyResult,
  type SelectOptions,
  type Strategy,
  type StrategyResult,
} from "./strategy.js";
import { estimateTokens, type TokenCounter } from "./token-estimate.js";
import { computeTraceToken } from "./trace-token.js";

export class ChunkedTreeStrategy implements Strategy {
  readonly name = "chunked-tree";
  constructor(
    private readonly llm: LlmClient,
    private readonly countTokens: TokenCounter = estimateTokens,
  ) {}

  async select(
    tree: DocumentTree,
    query: string,
    budget: ContextBudget = {},
    options: SelectOptions = {},
  ): Promise<StrategyResult> {
    if (!tree.root) return emptyResult();
    const available = availableTokens(budget) || (budget.maxTokens ?? DEFAULT_BUDGET.maxTokens);
    const slices = splitIntoSlices(tree, available, this.countTokens);
    const turns = new ModelTurns(this.llm, options);
    const model = budget.modelName;
    const results: Selection[] = new Array(slices.length);
    const parallel = Math.max(1, Math.floor(budget.maxParallelCalls ?? DEFAULT_BUDGET.maxParallelCalls));
    let next = 0;
    let failure: unknown;
    const worker = async () => {
      while (next < slices.length && failure === undefined) {
        const index = next++;
        const slice = slices[index]!;
        try {
          const selection = await runSelection(
            turns,
            {
              breadcrumb: slice.breadcrumb,
              outline: outlineText(slice.views, slice.views[0]?.depth ?? 0),
              ...(slice.peripheral.length > 0 ? { peripheral: slice.peripheral.join("\n") } : {}),
              query,
            },
            model,
            `chunked-tree slice ${index + 1}`,
          );
          results[index] = filterKnownIds(selection, knownIds(slice.views));
        } catch (error) {
          // Reference: any slice error fails the whole call (the caller falls back).
          failure ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, slices.length) }, worker));
    if (failure !== undefined) throw failure;

    const picked = new Set<string>();
    const confidences = new Map<string, number>();
    for (const r of results) {
      if (!r) continue;
      for (const id of r.ids) picked.add(id);
      for (const [id, c] of r.confidences ?? []) confidences.set(id, Math.max(c, confidences.get(id) ?? 0));
    }
    const ids = buildView(tree)
      .map((v) => v.id)
      .filter((id) => picked.has(id));
    const modelUsed = model ?? turns.modelUsed;
    const stopped = turns.stopped();
    return {
      selectedIds: ids,
      confidences: confidences.size > 0 ? confidences : null,
      modelUsed,
      usage: turns.usage,
      hopsTaken: 1,
      traceToken: computeTraceToken(tree.documentId, "1", modelUsed, ids),
      ...(stopped ? { stopped } : {}),
    };
  }
}
