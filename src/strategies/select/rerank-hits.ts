// `retrieval.rerankStrategy: "single-pass"`: the top hits of a search shown to the model as a
// one-level outline (title, heading, a short excerpt), one selection call, and the picks moved
// to the front by confidence. Invariant (as the reference's reranker): every input hit comes
// out exactly once; picks of unknown ids are ignored; any failure keeps the input order.
import type { LlmClient } from "../../llm/llm-client.js";
import { oneLine } from "../../text-clip.js";
import type { Hit } from "../../types.js";
import type { DocumentTree, TreeSection } from "../tree/document-tree.js";
import type { RunLimits } from "./model-turns.js";
import { SinglePassStrategy } from "./single-pass.js";
import { type StrategyUsage, zeroUsage } from "./usage.js";

/** Hits beyond this are not shown to the model; they keep their place after the shown ones. */
export const DEFAULT_RERANK_CANDIDATES = 20;
const EXCERPT_CHARS = 300;

export interface RerankOutcome {
  hits: Hit[];
  /** True when the model's selection decided the order. */
  reranked: boolean;
  usage: StrategyUsage;
  error?: string;
}

export async function rerankHitsSinglePass(
  llm: LlmClient,
  query: string,
  hits: readonly Hit[],
  options: RunLimits & { candidates?: number; model?: string } = {},
): Promise<RerankOutcome> {
  if (hits.length === 0) return { hits: [], reranked: false, usage: zeroUsage() };
  const shown = hits.slice(0, options.candidates ?? DEFAULT_RERANK_CANDIDATES);
  const children: TreeSection[] = shown.map((hit, i) => ({
    id: `hit_${i + 1}`,
    title: [hit.title, hit.heading].filter(Boolean).join(" > "),
    summary: excerpt(hit),
    tokens: 0,
    children: [],
  }));
  const tree: DocumentTree = {
    documentId: "search-results",
    title: `Search results for: ${query}`,
    root: { id: "", title: "", tokens: 0, children },
  };
  try {
    const result = await new SinglePassStrategy(llm).select(
      tree,
      query,
      options.model ? { modelName: options.model } : {},
      options,
    );
    const order = result.selectedIds.map((id, rank) => ({
      index: Number(id.slice(4)) - 1,
      confidence: result.confidences?.get(id) ?? 1 - rank / (result.selectedIds.length + 1),
      rank,
    }));
    order.sort((a, b) => b.confidence - a.confidence || a.rank - b.rank);
    const picked = new Set(order.map((o) => o.index));
    const out = [...order.map((o) => hits[o.index]!), ...hits.filter((_, i) => !picked.has(i))];
    return { hits: out, reranked: order.length > 0, usage: result.usage };
  } catch (error) {
    return {
      hits: [...hits],
      reranked: false,
      usage: (error as { usage?: StrategyUsage }).usage ?? zeroUsage(),
      error: String((error as Error)?.message ?? error),
    };
  }
}

function excerpt(hit: Hit): string {
  const text = hit.snippet ?? hit.chunks?.map((c) => c.content).join(" ") ?? "";
  return oneLine(text, EXCERPT_CHARS);
}
