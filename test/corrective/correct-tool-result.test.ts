// correctToolResult, the entry point hooks, MCP and the CLI call: docs/reference/muninn-corrective-retrieval.md §9 scenarios 54–60
// (the hook's behaviour), trace markers, defensive argument handling and bounded work.
import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { type CorrectiveContext, correctToolResult } from "../../src/corrective/correct-tool-result.js";
import { renderHits, renderSearchResponse } from "../../src/knowledge-tool/render.js";
import type { Hit } from "../../src/types.js";
import {
  fenceD,
  hit,
  mergedB,
  oldDocText,
  response,
  scriptedGrader,
  silent,
  stubBackend,
  textB,
  textC,
  textD,
  widerHit,
} from "./corrective-fixtures.js";

const ctx = (
  overrides: Partial<CorrectiveContext> & Pick<CorrectiveContext, "backend">,
): CorrectiveContext => ({
  allowedCollections: ["wiki"],
  budget: 1,
  log: silent,
  ...overrides,
});

const neverBackend = () =>
  stubBackend(() => {
    throw new Error("must not search");
  });

const confidentText = renderSearchResponse(response("q", [hit("wiki", "1", "Good", 0.9)]), { brief: false });

describe("correctToolResult — the hook's behaviour (muninn 54–60)", () => {
  it("54: an empty result → null", async () => {
    const out = await correctToolResult(
      { toolName: "search_knowledge", toolArgs: { query: "q" }, resultText: "" },
      ctx({ backend: neverBackend() }),
    );
    expect(out).toBeNull();
  });

  it("55: (haiku) verdict 'correct' → outcome recorded, text unchanged", async () => {
    const grade = scriptedGrader({ verdict: "correct", reason: "covered" });
    const out = await correctToolResult(
      { toolName: "search_knowledge", toolArgs: { query: "q" }, resultText: confidentText },
      ctx({ backend: neverBackend(), grader: "haiku", grade }),
    );
    expect(out).not.toBeNull();
    expect(out?.text).toBe(confidentText);
    expect(out?.outcome.changed).toBe(false);
    expect(out?.outcome.metadata).toMatchObject({ retries: 0, graderMode: "haiku", verdicts: ["correct"] });
  });

  it("56: (haiku) low confidence → exactly one re-query, merged, trace fence preserved byte-for-byte", async () => {
    const rewrite = "LA_BUC_02 structured electronic documents";
    const backend = stubBackend(() =>
      response(rewrite, [hit("wiki", "1", "Old doc", 0.7), hit("wiki", "4", "Right doc", 0.8)]),
    );
    const grade = scriptedGrader({ verdict: "insufficient", reason: "off-topic", rewrittenQuery: rewrite });
    const out = await correctToolResult(
      {
        toolName: "knowledge-search_knowledge",
        toolArgs: { query: "LA_BUC_02", collection: "wiki" },
        resultText: textD,
        question: "what SEDs belong to LA_BUC_02?",
      },
      ctx({ backend, grader: "haiku", grade }),
    );
    expect(backend.requests).toHaveLength(1);
    expect(backend.requests[0]?.query).toBe(rewrite);
    const text = out?.text ?? "";
    expect(text.startsWith(oldDocText)).toBe(true);
    expect(text).toContain("## Right doc (80.0% relevant · high)");
    expect(text).toContain(`re-searched "${rewrite}" in collection wiki; 1 additional result below`);
    expect(text.split("doc_id: `1`")).toHaveLength(2);
    expect(text.endsWith(fenceD)).toBe(true);
    expect(out?.outcome.text).toBe(text);
    expect(out?.outcome.metadata.queriesTried).toEqual([rewrite]);
    expect(grade.inputs[0]?.question).toBe("what SEDs belong to LA_BUC_02?");
    // The grader sees the body, never the trace marker.
    expect(grade.inputs[0]?.text).toBe(oldDocText);
  });

  it("57: (signal) a confident search → null: an uneventful free check", async () => {
    const backend = neverBackend();
    const out = await correctToolResult(
      { toolName: "search_knowledge", toolArgs: { query: "q" }, resultText: confidentText },
      ctx({ backend }),
    );
    expect(out).toBeNull();
    expect(backend.requests).toHaveLength(0);
  });

  it("58: (signal) a weak result → re-queries with the footer hint and merges, exactly", async () => {
    const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]));
    const out = await correctToolResult(
      {
        toolName: "search_knowledge",
        toolArgs: { query: "LA_BUC_02 obscure phrasing", collection: "wiki" },
        resultText: textB,
      },
      ctx({ backend }),
    );
    expect(backend.requests.map((r) => r.query)).toEqual(["LA_BUC concepts"]);
    expect(out?.text).toBe(mergedB);
    expect(out?.outcome.metadata).toMatchObject({
      graderMode: "signal",
      verdicts: ["insufficient", "correct"],
      collectionsTried: [["wiki"]],
      finalVerdict: "correct",
    });
  });

  it("59: (signal) weak but no usable hint → recorded, no re-query, text unchanged", async () => {
    const backend = neverBackend();
    const resultText = `${oldDocText}\n\n*Weak match — try: related terms: foo, bar*`;
    const out = await correctToolResult(
      { toolName: "search_knowledge", toolArgs: { query: "q" }, resultText },
      ctx({ backend }),
    );
    expect(backend.requests).toHaveLength(0);
    expect(out).not.toBeNull();
    expect(out?.text).toBe(resultText);
    expect(out?.outcome.changed).toBe(false);
    expect(out?.outcome.metadata).toMatchObject({ retries: 0, verdicts: ["insufficient"] });
  });

  it("60: (signal) 'No results found' → re-queries with the footer hint, and the rescue counts", async () => {
    const backend = stubBackend(() => response("xyz precise term", [hit("wiki", "7", "Found it", 0.8)]));
    const out = await correctToolResult(
      { toolName: "search_knowledge", toolArgs: { query: "xyz", collection: "wiki" }, resultText: textC },
      ctx({ backend }),
    );
    expect(backend.requests[0]).toMatchObject({ query: "xyz precise term", collections: ["wiki"] });
    expect(out?.text).toContain("Found it");
    expect(out?.outcome.metadata.finalVerdict).toBe("correct");
  });
});

describe("correctToolResult — trace markers", () => {
  const markers = [
    "\n\nhuginn-trace-url: http://localhost:8321/api/trace/a3f8b21c4e9d0a55\n",
    "\n\nhuginn-trace-id: a3f8b21c4e9d0a55",
    "\n\n\nhuginn-trace-url: https://elsewhere.example/api/trace/0123456789abcdef  \n\n",
    '\n\n```huginn-trace\n{ "schemaVersion": 1,  "totalMs": 42 }\n```\n',
    fenceD,
  ];

  for (const marker of markers) {
    it(`re-appends ${JSON.stringify(marker.trim().slice(0, 24))}… unchanged after a merge`, async () => {
      const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]));
      const out = await correctToolResult(
        {
          toolName: "search_knowledge",
          toolArgs: { query: "LA_BUC_02", collection: "wiki" },
          resultText: textB + marker,
        },
        ctx({ backend }),
      );
      expect(out?.text).toBe(mergedB + marker);
    });

    it(`leaves a text ending in ${JSON.stringify(marker.trim().slice(0, 24))}… byte-identical when nothing changes`, async () => {
      const resultText = `${oldDocText}\n\n*Weak match — try: related terms: foo*${marker}`;
      const out = await correctToolResult(
        { toolName: "search_knowledge", toolArgs: { query: "q" }, resultText },
        ctx({ backend: neverBackend() }),
      );
      expect(out?.text).toBe(resultText);
      expect(out?.outcome.metadata.verdicts).toEqual(["insufficient"]);
    });
  }

  it("a footer before the marker is still the trailing footer (peeled first)", async () => {
    const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]));
    const out = await correctToolResult(
      {
        toolName: "search_knowledge",
        toolArgs: { query: "LA_BUC_02" },
        resultText: `${textB}\n\nhuginn-trace-id: 0123456789abcdef`,
      },
      ctx({ backend }),
    );
    expect(backend.requests).toHaveLength(1);
    expect(out?.text.endsWith("\n\nhuginn-trace-id: 0123456789abcdef")).toBe(true);
  });
});

describe("correctToolResult — arguments, read defensively", () => {
  const bad: unknown[] = [
    undefined,
    null,
    "LA_BUC_02",
    42,
    ["LA_BUC_02"],
    {},
    { query: 42 },
    { query: "   " },
    { query: ["a"] },
    { query: "x".repeat(100_000) },
  ];
  for (const toolArgs of bad) {
    it(`${JSON.stringify(toolArgs)?.slice(0, 40)} → null, no search, no throw`, async () => {
      const backend = neverBackend();
      const out = await correctToolResult(
        { toolName: "search_knowledge", toolArgs, resultText: textB },
        ctx({ backend }),
      );
      expect(out).toBeNull();
      expect(backend.requests).toHaveLength(0);
    });
  }

  it("a getter that throws, or a call that is not an object, → null", async () => {
    const toolArgs = {
      get query(): string {
        throw new Error("boom");
      },
    };
    const backend = neverBackend();
    expect(
      await correctToolResult({ toolName: "x", toolArgs, resultText: textB }, ctx({ backend })),
    ).toBeNull();
    expect(await correctToolResult(null as never, ctx({ backend }))).toBeNull();
    expect(
      await correctToolResult(
        { toolName: "x", toolArgs: { query: "q" }, resultText: 7 as never },
        ctx({ backend }),
      ),
    ).toBeNull();
  });

  it("carries limit, brief and min_relevance over; takes collection as a string or an array", async () => {
    const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]), ["wiki", "handbook"]);
    await correctToolResult(
      {
        toolName: "search_knowledge",
        toolArgs: {
          query: "q",
          collection: [" wiki ", "handbook", 7, ""],
          limit: 4.7,
          brief: false,
          min_relevance: 0.2,
        },
        resultText: textB,
      },
      ctx({ backend, allowedCollections: ["wiki", "handbook"] }),
    );
    expect(backend.requests[0]).toEqual({
      query: "LA_BUC concepts",
      collections: ["wiki", "handbook"],
      rerank: true,
      limit: 4,
      brief: false,
      minRelevance: 0.2,
    });
  });

  it("a garbage hint (a 100 KB broader query) is never searched", async () => {
    const backend = neverBackend();
    const resultText = `${oldDocText}\n\n*Weak match — try: broader query: "${"y".repeat(100_000)}"*`;
    const out = await correctToolResult(
      { toolName: "s", toolArgs: { query: "q" }, resultText },
      ctx({ backend }),
    );
    expect(backend.requests).toHaveLength(0);
    expect(out?.text).toBe(resultText);
  });

  it("an allow-list that is not a list allows nothing: no re-query, never the backend's whole list", async () => {
    const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]), ["wiki", "docs"]);
    for (const allowedCollections of [undefined, null, "wiki"]) {
      const out = await correctToolResult(
        { toolName: "s", toolArgs: { query: "q" }, resultText: textB },
        // A JavaScript caller that forgot the caller's scope, or passed something else.
        { backend, log: silent, allowedCollections } as unknown as CorrectiveContext,
      );
      expect(out?.text ?? textB).toBe(textB);
    }
    expect(backend.requests).toHaveLength(0);
  });

  it("fails soft: a backend that is down (collections() and search() throw) → the original text", async () => {
    const backend = {
      collections(): string[] {
        throw new Error("down");
      },
      async search() {
        throw new Error("down");
      },
    };
    const out = await correctToolResult(
      { toolName: "s", toolArgs: { query: "q" }, resultText: textB },
      { backend, allowedCollections: ["wiki"], log: silent },
    );
    expect(out?.text ?? textB).toBe(textB);
    expect(out?.outcome.changed ?? false).toBe(false);
  });

  it("an already aborted signal → null without searching", async () => {
    const backend = neverBackend();
    const out = await correctToolResult(
      { toolName: "s", toolArgs: { query: "q" }, resultText: textB, signal: AbortSignal.abort() },
      ctx({ backend }),
    );
    expect(out).toBeNull();
  });
});

describe("correctToolResult — bounded work", () => {
  function bigWeakText(): { text: string; middle: Hit } {
    const hits = Array.from({ length: 9_000 }, (_, i) =>
      hit("wiki", `doc-${i}`, `Document ${i}`, 0.3, "x".repeat(1_100)),
    );
    const body = renderHits(hits, { brief: false });
    return { text: `${body}\n\n*Weak match — try: broader query: "wide"*`, middle: hits[4_500]! };
  }

  it("a 10 MB weak result is corrected in bounded time, its body kept, duplicates in the middle found", async () => {
    const { text, middle } = bigWeakText();
    expect(text.length).toBeGreaterThan(10_000_000);
    const backend = stubBackend(() => response("wide", [middle, hit("wiki", "new", "Brand new", 0.8)]));
    const started = performance.now();
    const out = await correctToolResult(
      { toolName: "s", toolArgs: { query: "q" }, resultText: text },
      ctx({ backend }),
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1_500);
    expect(out?.outcome.metadata.newHits).toEqual([1]);
    const merged = out?.text ?? "";
    expect(merged.startsWith(text.slice(0, text.lastIndexOf("\n\n*Weak match")))).toBe(true);
    expect(
      merged.endsWith("## Brand new (80.0% relevant · high)\ncollection: `wiki` doc_id: `new`\n\nbody"),
    ).toBe(true);
    expect(merged.split("doc_id: `doc-4500`")).toHaveLength(2);
  });

  it("a 10 MB confident-looking result without footer is graded from its head and tail quickly", async () => {
    const hits = Array.from({ length: 9_000 }, (_, i) =>
      hit("wiki", `doc-${i}`, `Document ${i}`, 0.9, "x".repeat(1_100)),
    );
    const resultText = renderHits(hits, { brief: false });
    const started = performance.now();
    const out = await correctToolResult(
      { toolName: "s", toolArgs: { query: "q" }, resultText },
      ctx({ backend: neverBackend() }),
    );
    expect(performance.now() - started).toBeLessThan(500);
    expect(out).toBeNull();
  });

  it("a 100 KB query costs nothing", async () => {
    const backend = neverBackend();
    const started = performance.now();
    const out = await correctToolResult(
      { toolName: "s", toolArgs: { query: "q ".repeat(50_000) }, resultText: textB },
      ctx({ backend }),
    );
    expect(performance.now() - started).toBeLessThan(50);
    expect(out).toBeNull();
  });
});

describe("correctToolResult — with the in-process engine", () => {
  const doc = (id: string, title: string, content: string) => ({
    id,
    title,
    sections: [{ headingPath: [title], content }],
  });
  const engine = KnowledgeEngine.fromDocuments({
    wiki: [doc("plants", "Office plants", "Water the office plants every Monday. Ferns like shade.")],
    handbook: [doc("leave", "Parental leave policy", "Employees get sixteen weeks of paid parental leave.")],
    secret: [
      doc("salaries", "Parental leave salaries", "Executive parental leave salaries are confidential."),
    ],
  });

  async function weakWikiSearch() {
    const original = await engine.search({ query: "parental leave contractors", collections: ["wiki"] });
    return { original, resultText: renderSearchResponse(original, { brief: false }) };
  }

  it("the re-query never leaves the allow-list, even when the backend has more", async () => {
    const { original, resultText } = await weakWikiSearch();
    // No word of the query is in the wiki, so the index offers no lexical candidate: the rewrite
    // comes from a model grader.
    expect(original.retryHints?.unmatchedTerms).toEqual(["parental", "leave", "contractors"]);
    const grade = async () => ({
      verdict: "insufficient" as const,
      reason: "off-topic",
      rewrittenQuery: "parental leave",
    });
    const out = await correctToolResult(
      {
        toolName: "search_knowledge",
        toolArgs: { query: "parental leave contractors" },
        resultText,
        response: original,
      },
      { backend: engine, allowedCollections: ["wiki", "handbook"], grader: "haiku", grade, log: silent },
    );
    expect(out?.text).toContain("Parental leave policy");
    expect(out?.text).not.toContain("salaries");
    expect(out?.outcome.metadata).toMatchObject({
      collectionsTried: [["wiki", "handbook"]],
      queriesTried: ["parental leave"],
      finalVerdict: "correct",
    });
  });

  it("a backend error on the re-query (unknown collection) leaves the original byte-identical", async () => {
    const { resultText } = await weakWikiSearch();
    const out = await correctToolResult(
      { toolName: "search_knowledge", toolArgs: { query: "parental leave contractors" }, resultText },
      { backend: engine, allowedCollections: ["wiki", "missing"], log: silent },
    );
    expect(out?.text).toBe(resultText);
    expect(out?.outcome.changed).toBe(false);
    expect(out?.outcome.metadata.retries).toBe(0);
  });
});
