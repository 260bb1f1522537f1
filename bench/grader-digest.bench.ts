/**
 * What the model grader costs. The prompt: the digest of a result for 10 hits of 2 KB each and
 * for a 1 MB result (the orchestrator hands the grader a bounded view; the digest itself must
 * stay within 4,000 characters of results, footer included). The calls: grader calls per 100
 * searches on Cranfield under `haiku` (one per search at budget 1) and `auto` (only where the
 * signal is borderline, by the orchestrator's own rule), from `second-look eval`'s report.
 * Run by bench/run.ts.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { digestResults, MAX_DIGEST_CHARS } from "../src/corrective/grader-digest.js";
import { graderRequest } from "../src/corrective/knowledge-grader.js";
import { readCranfield } from "../src/evaluation/cranfield.js";
import { runEvaluation } from "../src/evaluation/run-evaluation.js";
import { renderSearchResponse } from "../src/knowledge-tool/render.js";
import { boundedView } from "../src/knowledge-tool/result-text.js";
import { sampleHit } from "./sample-hit.js";

export const name = "grader-digest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"), "cranfield");

interface DigestRow {
  label: string;
  inputChars: number;
  /** Hits in the whole result. */
  hitsInResult: number;
  /** Hits in the bounded view the grader is handed. */
  hits: number;
  listed: number;
  digestChars: number;
  footerKept: boolean;
  promptChars: number;
}

function weakResult(hits: number, contentChars: number): string {
  return renderSearchResponse(
    {
      query: "leave carry over",
      results: Array.from({ length: hits }, (_, i) => sampleHit(i, 0.42 - (i % 40) * 0.005, contentChars)),
      bestScore: 0.42,
      reranked: true,
      retryHints: { narrowerQuery: "annual leave carry over", broaderQuery: "leave" },
    },
    { brief: false },
  );
}

function measure(label: string, text: string): DigestRow {
  const source = boundedView(text).view;
  const digest = digestResults(source);
  const footer = text.slice(text.lastIndexOf("\n") + 1);
  return {
    label,
    inputChars: text.length,
    hitsInResult: text.split("\n## ").length - (text.startsWith("## ") ? 0 : 1),
    hits: digest.hits,
    listed: digest.listed,
    digestChars: digest.text.length,
    footerKept: digest.footer === footer && digest.text.endsWith(footer),
    promptChars: graderRequest("How many leave days carry over into next year?", source, ["handbook"])
      .messages[0]!.content.length,
  };
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const tenHits = weakResult(10, 2048);
  // Enough 2 KB hits to pass 1 MB of text.
  let oneMb = weakResult(450, 2048);
  if (oneMb.length < 1024 * 1024) oneMb = weakResult(Math.ceil((450 * 1024 * 1024) / oneMb.length) + 1, 2048);
  const rows = [measure("10 hits × 2 KB", tenHits), measure("1 MB result", oneMb)];
  for (const row of rows) {
    if (row.digestChars > MAX_DIGEST_CHARS || !row.footerKept) {
      throw new Error(
        `${row.label}: digest of ${row.digestChars} characters, footer kept: ${row.footerKept}`,
      );
    }
  }

  const dataset = await readCranfield(dataDir);
  const report = runEvaluation(dataset);

  const markdown = [
    `Digest of a weak full-mode result (bound ${MAX_DIGEST_CHARS} characters, footer included; a 1 MB result is first cut to the orchestrator's bounded view).`,
    "",
    "| result | input chars | hits | hits in view | listed | digest chars | footer kept | prompt chars |",
    "|---|---:|---:|---:|---:|---:|---|---:|",
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.inputChars} | ${r.hitsInResult} | ${r.hits} | ${r.listed} | ${r.digestChars} | ` +
        `${r.footerKept ? "yes" : "no"} | ${r.promptChars} |`,
    ),
    "",
    `Grader calls per 100 searches on Cranfield (${dataset.queries.length} queries, retry budget 1): ` +
      `haiku ${report.grader.haikuCallsPer100}, auto ${report.grader.autoCallsPer100}.`,
  ].join("\n");
  return {
    title: "Grader digest size and grader calls",
    figures: { digest: rows, cranfield: { queries: dataset.queries.length, ...report.grader } },
    markdown,
  };
}
