/**
 * How long the signal grader takes on a tool-result text: a typical 12 KB confident result, a
 * 4 MB result, and a 1 MB footer line that never closes (the case a backtracking regex would
 * turn quadratic). The grader sits on every knowledge-search call, so it must stay far below
 * the cost of the search itself. Run by bench/run.ts.
 */

import { gradeFromText } from "../src/corrective/signal-grader.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { renderHits, renderSearchResponse } from "../src/knowledge-tool/render.js";
import { sampleHit } from "./sample-hit.js";

export const name = "grade-speed";

interface Case {
  label: string;
  text: string;
  repetitions: number;
}

function cases(): Case[] {
  const confident = renderSearchResponse(
    {
      query: "handbook question",
      results: Array.from({ length: 10 }, (_, i) => sampleHit(i, 0.9 - i * 0.03, 1100)),
      bestScore: 0.9,
      reranked: true,
    },
    { brief: false },
  );
  const large = `${renderHits(
    Array.from({ length: 3600 }, (_, i) => sampleHit(i, 0.3, 1100)),
    { brief: false },
  )}\n\n*Weak match — try: broader query: "handbook"*`;
  const unterminated = `${confident}\n\n*Weak match — try: broader query: "${"x".repeat(1024 * 1024)}`;
  return [
    { label: "12 KB confident result", text: confident, repetitions: 2000 },
    { label: "4 MB weak result", text: large, repetitions: 40 },
    { label: "1 MB unterminated footer", text: unterminated, repetitions: 200 },
  ];
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const figures: Record<string, unknown> = {};
  const rows: string[] = [];
  for (const { label, text, repetitions } of cases()) {
    const verdict = gradeFromText(text).verdict; // warm-up, and a check that the case is what it says
    for (let i = 0; i < 5; i++) gradeFromText(text);
    const samples: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      const start = process.hrtime.bigint();
      gradeFromText(text);
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    samples.sort((a, b) => a - b);
    const median = percentiles(samples, [50])[0]!;
    const p99 = percentiles(samples, [99])[0]!;
    const bytes = Buffer.byteLength(text, "utf8");
    figures[label] = { bytes, repetitions, verdict, medianMs: round(median), p99Ms: round(p99) };
    rows.push(
      `| ${label} | ${(bytes / 1024).toFixed(0)} KB | ${verdict} | ${round(median)} | ${round(p99)} |`,
    );
  }
  const markdown = [
    "| input | size | verdict | median ms | p99 ms |",
    "|---|---:|---|---:|---:|",
    ...rows,
  ].join("\n");
  return { title: "Signal grader speed (gradeFromText)", figures, markdown };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
