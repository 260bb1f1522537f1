// A realistic full-mode hit for the text-level benchmarks (one ~contentChars section).

import type { Hit } from "../src/types.js";
import { bandFor } from "../src/weakness.js";

export function sampleHit(i: number, relevance: number, contentChars = 1000): Hit {
  return {
    collection: "handbook",
    id: `guides/doc-${i}.md`,
    title: `Document ${i}`,
    url: `https://docs.example/doc-${i}`,
    breadcrumb: "guides > handbook",
    relevance,
    band: bandFor(relevance),
    modifiedTime: "2026-05-02T09:15:00Z",
    chunks: [
      {
        heading: "Section",
        content: "The quick brown fox jumps over the lazy dog. ".repeat(Math.round(contentChars / 45)),
      },
    ],
  };
}
