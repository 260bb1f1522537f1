/**
 * The retrieval strategies with scripted models (no network, deterministic):
 * 1. Prompt tokens per strategy over a generated 500-section paged document, estimated as the
 *    reference does (max(words × 1.3, chars / 4) over the system prompt and every message sent,
 *    the whole history for the loops), with the calls and hops of each scripted run.
 * 2. Cranfield: the engine's lexical rerank vs a single-pass LLM rerank of its top 20, where the
 *    scripted model knows the relevance judgments and picks exactly the relevant candidates.
 *    That is an UPPER BOUND on what single-pass reranking can add over these candidates, not a
 *    measurement of any real model.
 * Run by bench/run.ts.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { KnowledgeEngine } from "../src/backends/embedded/embedded-engine.js";
import { readCranfield } from "../src/evaluation/cranfield.js";
import { toIndexableDocuments } from "../src/evaluation/eval-documents.js";
import { evaluateRuns } from "../src/evaluation/metrics.js";
import type { ChatRequest, ChatResponse, LlmClient } from "../src/llm/llm-client.js";
import { AgenticStrategy } from "../src/strategies/select/agentic.js";
import { rerankHitsSinglePass } from "../src/strategies/select/rerank-hits.js";
import { SinglePassStrategy } from "../src/strategies/select/single-pass.js";
import { TreeWalkStrategy } from "../src/strategies/select/treewalk.js";
import type { ContextBudget, Strategy } from "../src/strategies/strategy.js";
import type { DocumentTree, TreeSection } from "../src/strategies/tree/document-tree.js";
import { estimateTokens } from "../src/strategies/tree/token-estimate.js";

export const name = "strategies";
export const timeoutMs = 300_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"), "cranfield");
const RERANK_CANDIDATES = 20;

/** Replies turn by turn; prompt tokens are estimated over everything sent. */
class BenchLlm implements LlmClient {
  readonly model = "scripted";
  promptTokens = 0;
  calls = 0;
  constructor(private readonly reply: (request: ChatRequest, call: number) => string) {}
  async chat(request: ChatRequest): Promise<ChatResponse> {
    const sent = [request.system ?? "", ...request.messages.map((m) => m.content)].join("\n");
    const input = estimateTokens(sent);
    this.promptTokens += input;
    const text = this.reply(request, this.calls++);
    return { text, model: this.model, usage: { inputTokens: input, outputTokens: estimateTokens(text) } };
  }
}

/** 50 chapters × 10 sections, one page each, a one-line summary and ~120 words of body. */
function fiveHundredSections(): DocumentTree {
  const words = "turbine blade coolant pressure valve sensor housing rotor stator bearing".split(" ");
  const chapters: TreeSection[] = [];
  for (let c = 0; c < 50; c++) {
    const children: TreeSection[] = [];
    for (let s = 0; s < 10; s++) {
      const page = c * 10 + s + 1;
      const body = Array.from({ length: 120 }, (_, i) => words[(i * 7 + page) % words.length]).join(" ");
      children.push({
        id: `sec_${c + 1}_${s + 1}`,
        title: `Section ${c + 1}.${s + 1} ${words[page % words.length]} checks`,
        summary: `How to inspect the ${words[page % words.length]} and ${words[(page + 3) % words.length]} on unit ${page}.`,
        content: body,
        tokens: estimateTokens(body),
        pages: { start: page, end: page },
        children: [],
      });
    }
    chapters.push({
      id: `sec_${c + 1}`,
      title: `Chapter ${c + 1}`,
      summary: `Maintenance chapter ${c + 1}.`,
      tokens: 0,
      pages: { start: c * 10 + 1, end: c * 10 + 10 },
      children,
    });
  }
  return {
    documentId: "doc_500",
    title: "Turbine Maintenance Manual",
    root: { id: "", title: "Turbine Maintenance Manual", tokens: 0, children: chapters },
  };
}

interface TokenRow {
  strategy: string;
  setting: string;
  calls: number;
  hops: number;
  promptTokens: number;
  selected: string;
}

async function tokenRows(): Promise<TokenRow[]> {
  const tree = fiveHundredSections();
  const target = "sec_37_4";
  const pick = JSON.stringify({ picks: [{ id: target, confidence: 0.8 }] });
  const runs: {
    strategy: string;
    setting: string;
    make: (llm: LlmClient) => Strategy;
    reply: (r: ChatRequest, i: number) => string;
    budget?: ContextBudget;
  }[] = [
    {
      strategy: "single-pass",
      setting: "one call over the whole outline",
      make: (l) => new SinglePassStrategy(l),
      reply: () => pick,
    },
    {
      strategy: "agentic",
      setting: "expand → read → done",
      make: (l) => new AgenticStrategy(l),
      reply: (_r, i) =>
        [
          JSON.stringify({ action: "expand", section_id: "sec_37" }),
          JSON.stringify({ action: "read", section_id: target }),
          JSON.stringify({ action: "done", picks: [{ id: target, confidence: 0.8 }], reasoning: "r" }),
        ][i]!,
    },
    {
      strategy: "agentic",
      setting: "hop cap (always expands)",
      make: (l) => new AgenticStrategy(l),
      reply: () => JSON.stringify({ action: "expand", section_id: "sec_37" }),
    },
    {
      strategy: "treewalk",
      setting: "structure → get_pages → done",
      make: (l) => new TreeWalkStrategy(l),
      reply: (_r, i) =>
        [
          JSON.stringify({ tool: "get_document_structure" }),
          JSON.stringify({ tool: "get_pages", start_page: 364, end_page: 364 }),
          JSON.stringify({ tool: "done", answer: "a", cited_pages: [[364, 364]], confidence: 0.8 }),
        ][i]!,
    },
    {
      strategy: "treewalk",
      setting: "hop cap (always reads) + forced done",
      make: (l) => new TreeWalkStrategy(l),
      reply: (_r, i) =>
        i < 8
          ? JSON.stringify({ tool: "get_pages", start_page: 364, end_page: 365 })
          : JSON.stringify({ tool: "done", answer: "a", cited_pages: [[364, 364]] }),
    },
  ];
  const rows: TokenRow[] = [];
  for (const run of runs) {
    const llm = new BenchLlm(run.reply);
    const result = await run
      .make(llm)
      .select(tree, "How do I check the rotor bearing on unit 364?", run.budget ?? {});
    rows.push({
      strategy: run.strategy,
      setting: run.setting,
      calls: llm.calls,
      hops: result.hopsTaken,
      promptTokens: llm.promptTokens,
      selected: result.selectedIds.join(", ") || "—",
    });
  }
  return rows;
}

interface RerankFigures {
  queries: number;
  lexical: { ndcg10: number; miss10: number };
  singlePassOracle: { ndcg10: number; miss10: number };
  calls: number;
  promptTokensPerQuery: number;
}

async function cranfieldRerank(): Promise<RerankFigures> {
  const dataset = await readCranfield(dataDir);
  const engine = KnowledgeEngine.fromDocuments({ bench: toIndexableDocuments(dataset.docs) });
  const lexical = new Map<string, string[]>();
  const reranked = new Map<string, string[]>();
  let calls = 0;
  let promptTokens = 0;
  for (const query of dataset.queries) {
    const hits = engine.searchSync({ query: query.text, limit: 100 }).results;
    lexical.set(
      query.id,
      hits.map((h) => h.id),
    );
    const judged = dataset.qrels.get(query.id) ?? new Map<string, number>();
    const candidates = hits.slice(0, RERANK_CANDIDATES);
    const maxGain = Math.max(1, ...judged.values());
    // The oracle: picks every relevant candidate, confidence = its graded gain.
    const llm = new BenchLlm(() =>
      JSON.stringify({
        picks: candidates
          .map((h, i) => ({ id: `hit_${i + 1}`, gain: judged.get(h.id) ?? 0 }))
          .filter((p) => p.gain > 0)
          .map((p) => ({ id: p.id, confidence: p.gain / maxGain })),
      }),
    );
    const outcome = await rerankHitsSinglePass(llm, query.text, hits, { candidates: RERANK_CANDIDATES });
    calls += llm.calls;
    promptTokens += llm.promptTokens;
    reranked.set(
      query.id,
      outcome.hits.map((h) => h.id),
    );
  }
  const a = evaluateRuns(dataset.qrels, lexical);
  const b = evaluateRuns(dataset.qrels, reranked);
  return {
    queries: a.queries,
    lexical: { ndcg10: round(a.ndcg10), miss10: round(a.miss10) },
    singlePassOracle: { ndcg10: round(b.ndcg10), miss10: round(b.miss10) },
    calls,
    promptTokensPerQuery: Math.round(promptTokens / Math.max(1, dataset.queries.length)),
  };
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const tokens = await tokenRows();
  const rerank = await cranfieldRerank();
  const markdown = [
    "Prompt tokens per strategy on a generated 500-section paged document (50 chapters × 10 sections, 1 page each),",
    "estimated as the reference does: max(words × 1.3, chars / 4) over the system prompt and every message of every call",
    "(the loops resend their history each turn). Scripted model replies; hop counts are the strategies' own.",
    "",
    "| strategy | run | calls | hops | prompt tokens | selected |",
    "|---|---|---:|---:|---:|---|",
    ...tokens.map(
      (r) =>
        `| ${r.strategy} | ${r.setting} | ${r.calls} | ${r.hops} | ${r.promptTokens.toLocaleString("en-US")} | ${r.selected} |`,
    ),
    "",
    `Cranfield (${rerank.queries} judged queries): lexical rerank (engine default) vs single-pass LLM rerank of the top ${RERANK_CANDIDATES}.`,
    "**The single-pass row is an UPPER BOUND**: its scripted model knows the relevance judgments and picks exactly the",
    "relevant candidates (confidence = graded gain). A real model can only do worse; the row bounds what reranking",
    "these candidates could add, and the cost it would take.",
    "",
    "| rerank | nDCG@10 | miss@10 | model calls | prompt tokens / query |",
    "|---|---:|---:|---:|---:|",
    `| lexical (default) | ${rerank.lexical.ndcg10.toFixed(3)} | ${rerank.lexical.miss10.toFixed(3)} | 0 | 0 |`,
    `| single-pass, oracle model (UPPER BOUND) | ${rerank.singlePassOracle.ndcg10.toFixed(3)} | ${rerank.singlePassOracle.miss10.toFixed(3)} | ${rerank.calls} | ${rerank.promptTokensPerQuery} |`,
  ].join("\n");
  return {
    title: "Retrieval strategies: prompt tokens, hops, rerank upper bound",
    figures: { tokens, rerank },
    markdown,
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
