// Retrieval quality on the example bot's own handbook: realistic questions, in users' words
// rather than the documents', each with the page that answers it.
import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { openEmbeddedEngine } from "../../src/backends/embedded/open-embedded.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const questions = JSON.parse(readFileSync(join(repo, "test/fixtures/handbook/questions.json"), "utf8")) as {
  q: string;
  doc: string;
}[];

let dir: string;
let engine: KnowledgeEngine;
beforeAll(async () => {
  // A copy, so the test never writes an index into the repository's bot folder.
  dir = await mkdtemp(join(tmpdir(), "second-look-handbook-"));
  await cp(join(repo, "bots/handbook/docs"), join(dir, "docs"), { recursive: true });
  ({ engine } = await openEmbeddedEngine(dir, { handbook: { paths: ["docs/**/*.md"] } }));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function reciprocalRank(rerank: boolean): number {
  let sum = 0;
  for (const { q, doc } of questions) {
    const rank = engine.searchSync({ query: q, rerank }).results.findIndex((h) => h.id === doc);
    if (rank >= 0) sum += 1 / (rank + 1);
  }
  return sum / questions.length;
}

describe("handbook questions", () => {
  it("the default search ranks the answering page first for nearly every question (MRR >= 0.9)", () => {
    expect(reciprocalRank(true)).toBeGreaterThanOrEqual(0.9);
  });

  it("the first pass alone is close behind (MRR >= 0.85)", () => {
    expect(reciprocalRank(false)).toBeGreaterThanOrEqual(0.85);
  });

  it("answers the README's question with the FAQ entry that states the allowance", () => {
    const top = engine.searchSync({ query: "how many vacation days do I get" }).results[0]!;
    expect(top.id).toBe("docs/time-off/annual-leave.md");
    expect(top.chunks!.map((c) => c.content).join("\n")).toContain("25 days a year");
  });
});
