// A cache in front of a strategy (reference §5.6): the same (document, query, strategy, model)
// returns the cached ids without a model call. Only ids are cached; errors never are.
import { createHash } from "node:crypto";
import type { DocumentTree } from "./document-tree.js";
import { LruCache } from "./lru-cache.js";
import type { ContextBudget, SelectOptions, Strategy, StrategyResult } from "./strategy.js";
import { computeTraceToken } from "./trace-token.js";
import { zeroUsage } from "./usage.js";

export class CachedStrategy implements Strategy {
  private readonly cache: LruCache<string[]>;

  constructor(
    private readonly inner: Strategy,
    options: { maxEntries?: number; ttlMs?: number; now?: () => number } = {},
  ) {
    this.cache = new LruCache(
      options.maxEntries && options.maxEntries > 0 ? options.maxEntries : 1024,
      options.ttlMs && options.ttlMs > 0 ? options.ttlMs : 10 * 60 * 1000,
      options.now,
    );
  }

  get name(): string {
    return this.inner.name;
  }

  stats() {
    return this.cache.snapshot();
  }

  invalidateAll(): void {
    this.cache.clear();
  }

  async select(
    tree: DocumentTree,
    query: string,
    budget: ContextBudget = {},
    options?: SelectOptions,
  ): Promise<StrategyResult> {
    const model = budget.modelName ?? "";
    const key = createHash("sha256")
      .update([tree.documentId, query, this.inner.name, model].join("\0"))
      .digest("hex");
    const hit = this.cache.get(key);
    if (hit) {
      return {
        selectedIds: [...hit],
        confidences: null,
        reasoning: "cached",
        modelUsed: model,
        usage: zeroUsage(),
        hopsTaken: 0,
        traceToken: computeTraceToken(tree.documentId, "1", model, hit),
      };
    }
    const result = await this.inner.select(tree, query, budget, options);
    this.cache.set(key, [...result.selectedIds]);
    return result;
  }
}
