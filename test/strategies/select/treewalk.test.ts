// docs/reference/vectorless-strategies.md §12.4 (treewalk), scripted turn by turn over PagedTree (max page 9).
import { describe, expect, it } from "vitest";
import { selectCitedRanges } from "../../../src/strategies/answer/cited-ranges.js";
import { TreeWalkStrategy } from "../../../src/strategies/select/treewalk.js";
import { parseTreeWalkAction } from "../../../src/strategies/select/treewalk-action.js";
import type { TreeSection } from "../../../src/strategies/tree/document-tree.js";
import { ScriptedLlm } from "../../support/scripted-llm.js";
import { empty, pagedTree } from "../fixtures.js";

const call = (o: object) => JSON.stringify(o);
const structure = call({ tool: "get_document_structure", reasoning: "orient" });
const pages = (s: number, e: number) =>
  call({ tool: "get_pages", start_page: s, end_page: e, reasoning: "read" });
const done = (cited: unknown, extra: object = {}) =>
  call({
    tool: "done",
    answer: "Run vle ingest.",
    cited_pages: cited,
    confidence: 0.9,
    reasoning: "one range",
    ...extra,
  });

describe("treewalk", () => {
  it("TreeWalkHappyPath: structure → pages 1-2 → done [[1,2]]", async () => {
    const llm = new ScriptedLlm([structure, pages(1, 2), done([[1, 2]])]);
    const r = await new TreeWalkStrategy(llm).select(pagedTree(), "how do I install?");
    expect(r.hopsTaken).toBe(3);
    expect(llm.calls).toBe(3);
    expect(r.reasoning).toContain("vle ingest");
    expect(r.selectedIds).toContain("sec_a1");
    expect(r.selectedIds.every((id) => ["sec_a1", "sec_a", "sec_root"].includes(id))).toBe(true);
    expect(r.pagesRead).toHaveLength(1);
    expect(r.pagesRead![0]).toMatchObject({ startPage: 1, endPage: 2 });
    expect(r.pagesRead![0]!.charCount).toBeGreaterThan(0);
    expect(r.traceToken).toMatch(/^[0-9a-f]{64}$/);
    expect(llm.lastUserPrompt(0)).toContain("Pages: 1-9 (inclusive)");
    expect(llm.lastUserPrompt(1)).toContain("Install");
    expect(llm.lastUserPrompt(2)).toContain("Install steps: run vle ingest");
    expect(r.citedPages).toEqual([[1, 2]]);
  });

  it("TreeWalkMinimalIngestedDoc: no summaries, no TOC → titles in the structure, raw bodies, answer kept", async () => {
    const tree = pagedTree();
    const strip = (s: TreeSection) => {
      delete s.summary;
      s.children.forEach(strip);
    };
    strip(tree.root!);
    const llm = new ScriptedLlm([structure, pages(1, 2), done([[1, 2]])]);
    const r = await new TreeWalkStrategy(llm).select(tree, "q");
    expect(llm.lastUserPrompt(1)).toContain('"title": "Install"');
    expect(llm.lastUserPrompt(2)).toContain("Install steps: run vle ingest");
    expect(r.reasoning).toBe("Run vle ingest.");
    expect(r.selectedIds).toContain("sec_a1");
  });

  it("TreeWalkMultiRangeDone: two reads then [[3,4],[8,9]]", async () => {
    const llm = new ScriptedLlm([
      structure,
      pages(3, 4),
      pages(8, 9),
      done([
        [3, 4],
        [8, 9],
      ]),
    ]);
    const r = await new TreeWalkStrategy(llm).select(pagedTree(), "q");
    expect(r.hopsTaken).toBe(4);
    expect(r.pagesRead).toHaveLength(2);
    expect(r.selectedIds).toEqual(expect.arrayContaining(["sec_a2", "sec_b2"]));
    expect(r.selectedIds.every((id) => ["sec_a2", "sec_b2", "sec_a", "sec_b", "sec_root"].includes(id))).toBe(
      true,
    );
  });

  it("TreeWalkMaxHopsForcesDone: pages forever, MaxHops 3 → forced turn fails to parse → empty answer", async () => {
    const llm = new ScriptedLlm([pages(1, 2)], "m", { repeatLast: true });
    const r = await new TreeWalkStrategy(llm, { maxHops: 3 }).select(pagedTree(), "q");
    expect(r.hopsTaken).toBeGreaterThanOrEqual(3);
    expect(r.hopsTaken).toBe(4);
    expect(r.reasoning).toBe("");
    expect(r.pagesRead!.length).toBeGreaterThan(0);
    expect(llm.lastUserPrompt()).toContain("tool budget is used up");
  });

  it("TreeWalkMaxHopsForceDoneSucceeds", async () => {
    const llm = new ScriptedLlm([structure, pages(1, 2), done([[1, 2]], { answer: "forced answer" })]);
    const r = await new TreeWalkStrategy(llm, { maxHops: 2 }).select(pagedTree(), "q");
    expect(r.reasoning).toBe("forced answer");
    expect(r.selectedIds.length).toBeGreaterThan(0);
    expect(r.hopsTaken).toBe(3);
  });

  it("a transport error in the forced turn is swallowed", async () => {
    const llm = new ScriptedLlm([structure, pages(1, 2), new Error("provider 500")]);
    const r = await new TreeWalkStrategy(llm, { maxHops: 2 }).select(pagedTree(), "q");
    expect(r.reasoning).toBe("");
    expect(r.hopsTaken).toBe(2);
  });

  it("TreeWalkTOCFallback: a failing provider → the synthesised structure", async () => {
    const llm = new ScriptedLlm([structure, done([])]);
    const r = await new TreeWalkStrategy(llm, {
      tocProvider: () => {
        throw new Error("no toc");
      },
    }).select(pagedTree(), "q");
    for (const word of ["Install", "Config", "Querying", "Debt", "page_start"])
      expect(llm.lastUserPrompt(1)).toContain(word);
    expect(r.hopsTaken).toBe(2);
  });

  it("TreeWalkTOCFromProvider: provider text is used verbatim", async () => {
    const llm = new ScriptedLlm([structure, done([])]);
    await new TreeWalkStrategy(llm, { tocProvider: () => '{"toc":"OVERRIDDEN"}' }).select(pagedTree(), "q");
    expect(llm.lastUserPrompt(1)).toContain("OVERRIDDEN");
    expect(llm.lastUserPrompt(1)).not.toContain("Install");
  });

  it("TreeWalkBadJSONGraceful: prose every turn, MaxHops 3 → no error, empty", async () => {
    const llm = new ScriptedLlm(["I would look at page two."], "m", { repeatLast: true });
    const r = await new TreeWalkStrategy(llm, { maxHops: 3 }).select(pagedTree(), "q");
    expect(r.reasoning).toBe("");
    expect(r.pagesRead).toEqual([]);
    expect(llm.lastUserPrompt(1)).toContain("not a valid JSON tool call");
  });

  it("TreeWalkClampInvalidRange: 100-105 on 9 pages → invalid range, then recovers", async () => {
    const llm = new ScriptedLlm([pages(100, 105), done([[1, 2]], { answer: "recovered" })]);
    const r = await new TreeWalkStrategy(llm).select(pagedTree(), "q");
    expect(llm.lastUserPrompt(1)).toContain("invalid range");
    expect(r.reasoning).toBe("recovered");
    expect(r.pagesRead).toEqual([]);
  });

  it("TreeWalkClampPartialOverlap: 8-50 → read 8-9", async () => {
    const llm = new ScriptedLlm([pages(8, 50), done([[8, 9]])]);
    const r = await new TreeWalkStrategy(llm).select(pagedTree(), "q");
    expect(r.pagesRead![0]).toMatchObject({ startPage: 8, endPage: 9 });
  });

  it("TreeWalkEmptyTree: no call", async () => {
    const llm = new ScriptedLlm([]);
    const r = await new TreeWalkStrategy(llm).select(empty(), "q");
    expect(r.selectedIds).toEqual([]);
    expect(llm.calls).toBe(0);
  });

  it("TreeWalkNoLoaderFallback: titles and summaries only", async () => {
    const llm = new ScriptedLlm([pages(1, 2), done([[1, 2]])]);
    await new TreeWalkStrategy(llm, { pageLoader: null }).select(pagedTree(), "q");
    expect(llm.lastUserPrompt(1)).toContain('title="Install"');
    expect(llm.lastUserPrompt(1)).toContain('summary="install steps"');
  });

  it("TreeWalkContentClippedAtLimit: 4 bodies of 5000 chars, limit 1000 → ≤ 1000 chars", async () => {
    const tree = pagedTree();
    const fill = (s: TreeSection) => {
      if (s.children.length === 0) s.content = "y".repeat(5000);
      s.children.forEach(fill);
    };
    fill(tree.root!);
    const llm = new ScriptedLlm([pages(1, 9), done([[1, 2]])]);
    const r = await new TreeWalkStrategy(llm, { pageContentLimit: 1000 }).select(tree, "q");
    expect(r.pagesRead![0]!.charCount).toBeLessThanOrEqual(1000);
  });

  it("TreeWalkNoCitationsClearsSelection: a refusal selects nothing", async () => {
    const llm = new ScriptedLlm([
      call({
        tool: "done",
        answer: "The document does not address this query.",
        cited_pages: [],
        confidence: 0,
      }),
    ]);
    const r = await new TreeWalkStrategy(llm).select(pagedTree(), "q");
    expect(r.selectedIds).toEqual([]);
    expect(r.reasoning).toContain("does not address");
    expect(r.confidences).toBeNull();
  });

  it("TreeWalkTraceTokenStable and TraceTokenOrderInvariant", async () => {
    const run = (cited: number[][]) =>
      new TreeWalkStrategy(new ScriptedLlm([done(cited)])).select(pagedTree(), "q");
    const a = await run([
      [1, 2],
      [8, 9],
    ]);
    const b = await run([
      [1, 2],
      [8, 9],
    ]);
    const c = await run([
      [8, 9],
      [1, 2],
    ]);
    expect(a.traceToken).toBeTruthy();
    expect(a.traceToken).toBe(b.traceToken);
    expect(a.traceToken).toBe(c.traceToken);
  });

  it("TreeWalkDedupCollapsesRepeatedRange: [1,2]×5 + [3,4] + [8,9] → three ranges, no duplicate ids", async () => {
    const cited = [
      [1, 2],
      [1, 2],
      [1, 2],
      [1, 2],
      [1, 2],
      [3, 4],
      [8, 9],
    ];
    const r = await new TreeWalkStrategy(new ScriptedLlm([done(cited)])).select(pagedTree(), "q");
    expect(r.citedPages).toEqual([
      [1, 2],
      [3, 4],
      [8, 9],
    ]);
    expect(new Set(r.selectedIds).size).toBe(r.selectedIds.length);
  });

  it("TreeWalkCapKeepsHighestConfidence: cap 2 keeps the two most confident, page-sorted", async () => {
    const rich = [
      { pages: [1, 2], confidence: 0.1 },
      { pages: [3, 4], confidence: 0.2 },
      { pages: [8, 9], confidence: 0.9 },
      { pages: [5, 7], confidence: 0.95 },
      { pages: [6, 6], confidence: 0.05 },
    ];
    const r = await new TreeWalkStrategy(new ScriptedLlm([done(rich)]), { maxCitations: 2 }).select(
      pagedTree(),
      "q",
    );
    expect(r.citedPages).toEqual([
      [5, 7],
      [8, 9],
    ]);
    expect(r.confidence).toBe(0.9);
  });

  it("TreeWalkConfidentSinglePreserved, LowConfidenceStillCommitsSingle, ConfidenceClamped", async () => {
    let r = await new TreeWalkStrategy(new ScriptedLlm([done([[1, 2]], { confidence: 0.92 })])).select(
      pagedTree(),
      "q",
    );
    expect(r.citedPages).toEqual([[1, 2]]);
    expect(r.confidence).toBe(0.92);
    expect(r.confidences?.get("sec_a1")).toBe(0.92);
    r = await new TreeWalkStrategy(new ScriptedLlm([done([[8, 9]], { confidence: 0.15 })])).select(
      pagedTree(),
      "q",
    );
    expect(r.citedPages).toEqual([[8, 9]]);
    expect(r.confidence).toBe(0.15);
    expect(r.selectedIds.length).toBeGreaterThan(0);
    r = await new TreeWalkStrategy(new ScriptedLlm([done([[8, 9]], { confidence: 7.5 })])).select(
      pagedTree(),
      "q",
    );
    expect(r.confidence).toBe(1);
  });

  it("TreeWalkCapConfigurable: six single pages, cap 1, no confidences → the first listed", async () => {
    const cited = [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
      [6, 6],
    ];
    const r = await new TreeWalkStrategy(new ScriptedLlm([done(cited)]), { maxCitations: 1 }).select(
      pagedTree(),
      "q",
    );
    expect(r.citedPages).toEqual([[1, 1]]);
  });

  it("TreeWalkEmptyCitationsNoConfidence", async () => {
    const r = await new TreeWalkStrategy(new ScriptedLlm([done([], { confidence: 0 })])).select(
      pagedTree(),
      "q",
    );
    expect(r.citedPages).toEqual([]);
    expect(r.confidences).toBeNull();
    expect(r.selectedIds).toEqual([]);
  });

  it("selected ids drop ancestors of other selected sections (decided)", async () => {
    const r = await new TreeWalkStrategy(new ScriptedLlm([done([[1, 2]])])).select(pagedTree(), "q");
    expect(r.selectedIds).toEqual(["sec_a1"]);
  });

  it("events are reported per tool call", async () => {
    const events: string[] = [];
    const llm = new ScriptedLlm([structure, pages(1, 2), "junk", call({ tool: "dance" }), done([[1, 2]])]);
    await new TreeWalkStrategy(llm, {
      onEvent: (e) => events.push(`${e.hop}:${e.type}${e.note ? `(${e.note})` : ""}`),
    }).select(pagedTree(), "q");
    expect(events).toEqual([
      "1:get_document_structure",
      "2:get_pages",
      "4:dance(unsupported tool)",
      "5:done",
    ]);
  });

  it("a document without pages says so in the first prompt", async () => {
    const llm = new ScriptedLlm([done([])]);
    const tree = pagedTree();
    const strip = (s: TreeSection) => {
      delete s.pages;
      s.children.forEach(strip);
    };
    strip(tree.root!);
    await new TreeWalkStrategy(llm).select(tree, "q");
    expect(llm.lastUserPrompt(0)).toContain("Pages: unknown");
  });
});

describe("parseTreeWalkAction", () => {
  const ok = (raw: string) => {
    const r = parseTreeWalkAction(raw);
    if (!r.ok) throw new Error(r.error);
    return r.action;
  };
  it("ParseTreeWalkActionTolerance", () => {
    expect(ok(structure).tool).toBe("get_document_structure");
    expect(ok(pages(5, 7))).toMatchObject({ tool: "get_pages", startPage: 5, endPage: 7 });
    expect(ok('{"action":"get_pages","start_page":5,"end_page":7}').tool).toBe("get_pages");
    expect(ok('{"tool":"get_pages","pages":"5-7"}')).toMatchObject({ startPage: 5, endPage: 7 });
    expect(ok('{"tool":"get_pages","pages":"12"}')).toMatchObject({ startPage: 12, endPage: 12 });
    expect(ok(`\`\`\`json\n${pages(1, 2)}\n\`\`\``).tool).toBe("get_pages");
    expect(ok(`I will read: ${pages(1, 2)}`).tool).toBe("get_pages");
    expect(ok('{"tool":"GET_PAGES","start_page":1}').tool).toBe("get_pages");
    expect(
      ok(
        done([
          [1, 2],
          [5, 7],
        ]),
      ).citedPages.map((c) => [c.start, c.end]),
    ).toEqual([
      [1, 2],
      [5, 7],
    ]);
    expect(ok(done(["1-2", "5-7"])).citedPages.map((c) => [c.start, c.end])).toEqual([
      [1, 2],
      [5, 7],
    ]);
  });
  it("ParseTreeWalkActionRejectsGarbage", () => {
    for (const bad of ["", "just prose", '{"reasoning":"no tool"}'])
      expect(parseTreeWalkAction(bad).ok).toBe(false);
  });
  it("ParseTreeWalkConfidenceAndRichCitations", () => {
    expect(ok(done([[1, 2]], { confidence: 0.8 })).confidence).toBe(0.8);
    expect(ok(done([[1, 2]], { confidence: "0.6" })).confidence).toBe(0.6);
    expect(
      ok(done([{ pages: [5, 7] }, { pages: [12, 12] }])).citedPages.map((c) => [c.start, c.end]),
    ).toEqual([
      [5, 7],
      [12, 12],
    ]);
    expect(ok(done([{ start: 3, end: 4 }])).citedPages.map((c) => [c.start, c.end])).toEqual([[3, 4]]);
    expect(ok(done([[5]])).citedPages.map((c) => [c.start, c.end])).toEqual([[5, 0]]);
    expect(selectCitedRanges([{ start: 5, end: 0, confidence: 0 }], 9, 3)).toEqual([[5, 5]]);
  });
  it("a badly typed field does not void the rest", () => {
    expect(ok('{"tool":"done","answer":"a","cited_pages":[[1,2]],"confidence":{"x":1}}')).toMatchObject({
      answer: "a",
      confidence: 0,
    });
  });
});

describe("structure that does not fit", () => {
  it("drops levels (with a note) before it would cut the JSON", async () => {
    const { fittedToc, synthesisedToc } = await import("../../../src/strategies/select/treewalk.js");
    const tree = pagedTree();
    const full = synthesisedToc(tree);
    expect(fittedToc(tree, full.length)).toBe(full);
    const shallow = fittedToc(tree, 400);
    expect(shallow.length).toBeLessThanOrEqual(400 + 120);
    expect(shallow).toContain("levels below depth");
    expect(shallow).toContain('"page_end":9');
    expect(shallow).not.toContain("Install");
  });
});
