/**
 * What the corrective hook adds to every knowledge-search call in signal mode: correctToolResult
 * on a confident 12 KB result (the common case: parse the arguments, peel the trace marker,
 * grade, return null) and on a weak 12 KB result that is re-queried and merged. The backend is a
 * stub that answers at once, and the time spent inside it is subtracted, so the figures are the
 * hook's own work. Goal: < 50 µs median for the confident case. Run by bench/run.ts.
 */

import { pino } from "pino";
import { correctToolResult } from "../src/corrective/correct-tool-result.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { renderSearchResponse } from "../src/knowledge-tool/render.js";
import type { KnowledgeBackend, SearchResponse } from "../src/types.js";
import { sampleHit } from "./sample-hit.js";

export const name = "hook-overhead";

const GOAL_CONFIDENT_MEDIAN_US = 50;
const silent = pino({ level: "silent" });

function result(relevance: number, hints?: SearchResponse["retryHints"]): SearchResponse {
  const results = Array.from({ length: 10 }, (_, i) => sampleHit(i, relevance - i * 0.01));
  const response: SearchResponse = {
    query: "handbook question",
    results,
    bestScore: relevance,
    reranked: true,
  };
  if (hints) response.retryHints = hints;
  return response;
}

/** A backend that answers at once and keeps the time spent inside it. */
function instantBackend(answer: SearchResponse): KnowledgeBackend & { spentNs: bigint } {
  const backend = {
    spentNs: 0n,
    collections: () => ["handbook"],
    search: (): Promise<SearchResponse> => {
      const start = process.hrtime.bigint();
      const promise = Promise.resolve(answer);
      backend.spentNs += process.hrtime.bigint() - start;
      return promise;
    },
  };
  return backend;
}

interface Case {
  label: string;
  key: string;
  text: string;
  iterations: number;
  backend: KnowledgeBackend & { spentNs: bigint };
  /** The outcome the case must produce, checked once before timing. */
  expectChanged: boolean | null;
}

async function measure(c: Case): Promise<{ medianUs: number; p99Us: number; bytes: number }> {
  const call = { toolName: "search_knowledge", toolArgs: { query: "handbook question" }, resultText: c.text };
  const context = { backend: c.backend, allowedCollections: ["handbook"], budget: 1, log: silent };
  const first = await correctToolResult(call, context);
  const changed = first === null ? null : first.outcome.changed;
  if (changed !== c.expectChanged)
    throw new Error(`${c.label}: expected changed=${c.expectChanged}, got ${changed}`);
  for (let i = 0; i < 200; i++) await correctToolResult(call, context);
  const samples: number[] = [];
  for (let i = 0; i < c.iterations; i++) {
    c.backend.spentNs = 0n;
    const start = process.hrtime.bigint();
    await correctToolResult(call, context);
    const elapsed = process.hrtime.bigint() - start - c.backend.spentNs;
    samples.push(Number(elapsed) / 1e3);
  }
  samples.sort((a, b) => a - b);
  return {
    medianUs: percentiles(samples, [50])[0]!,
    p99Us: percentiles(samples, [99])[0]!,
    bytes: Buffer.byteLength(c.text),
  };
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const confident = renderSearchResponse(result(0.9), { brief: false });
  const weak = renderSearchResponse(result(0.3, { broaderQuery: "handbook" }), { brief: false });
  const rescue: SearchResponse = {
    query: "handbook",
    results: [sampleHit(100, 0.8), sampleHit(0, 0.7)],
    bestScore: 0.8,
    reranked: true,
  };
  const cases: Case[] = [
    {
      label: "confident 12 KB result (uneventful check)",
      key: "confident",
      text: confident,
      iterations: 20_000,
      backend: instantBackend(rescue),
      expectChanged: null,
    },
    {
      label: "weak 12 KB result (re-query + merge, backend excluded)",
      key: "weak",
      text: weak,
      iterations: 5_000,
      backend: instantBackend(rescue),
      expectChanged: true,
    },
  ];

  const figures: Record<string, unknown> = {};
  const rows: string[] = [];
  for (const c of cases) {
    const { medianUs, p99Us, bytes } = await measure(c);
    figures[c.key] = {
      bytes,
      iterations: c.iterations,
      medianUs: Number(medianUs.toFixed(2)),
      p99Us: Number(p99Us.toFixed(2)),
    };
    rows.push(
      `| ${c.label} | ${(bytes / 1024).toFixed(1)} KB | ${medianUs.toFixed(1)} | ${p99Us.toFixed(1)} |`,
    );
  }
  const confidentMedian = (figures.confident as { medianUs: number }).medianUs;
  figures.goalConfidentMedianUs = GOAL_CONFIDENT_MEDIAN_US;
  figures.meetsGoal = confidentMedian < GOAL_CONFIDENT_MEDIAN_US;

  const markdown = [
    "Signal-mode cost of `correctToolResult` per knowledge-search call (stub backend, its time subtracted).",
    "",
    "| case | size | median (µs) | p99 (µs) |",
    "|---|---|---|---|",
    ...rows,
    "",
    `Goal: confident median < ${GOAL_CONFIDENT_MEDIAN_US} µs — ${figures.meetsGoal ? "met" : "NOT met"}.`,
  ].join("\n");
  return { title: "Corrective hook overhead (signal mode)", figures, markdown };
}
