// `retrieval.answerSpans`: a verbatim quote on each of the top merged hits, taken from the
// hit's best section (its first chunk, or its snippet in brief mode), with bounded concurrency.
// A failed extraction leaves the hit without a quote; nothing here can fail the search.
import type { LlmClient } from "../../llm/llm-client.js";
import type { Hit } from "../../types.js";
import { extractAnswerSpan, type SpanOptions } from "./answer-span.js";

export const DEFAULT_SPAN_HITS = 3;
export const DEFAULT_SPAN_CONCURRENCY = 4;

export async function attachAnswerSpans(
  llm: LlmClient,
  query: string,
  hits: readonly Hit[],
  options: SpanOptions & { maxHits?: number; maxConcurrency?: number } = {},
): Promise<Hit[]> {
  const out = hits.map((h) => ({ ...h }));
  const targets = out.slice(0, options.maxHits ?? DEFAULT_SPAN_HITS);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const hit = targets[next++]!;
      const content = hit.chunks?.[0]?.content ?? hit.snippet ?? "";
      try {
        const { span } = await extractAnswerSpan(llm, content, query, options);
        if (span) hit.quote = span;
      } catch {
        // Fail soft: no quote.
      }
    }
  };
  const workers = Math.max(1, Math.min(options.maxConcurrency ?? DEFAULT_SPAN_CONCURRENCY, targets.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return out;
}
