// Every loop is bounded in hops, tokens and time; a Doc becomes a tree with page ranges.
import { describe, expect, it } from "vitest";
import { AgenticStrategy } from "../../src/strategies/select/agentic.js";
import { ModelTurns } from "../../src/strategies/select/model-turns.js";
import { TreeWalkStrategy } from "../../src/strategies/select/treewalk.js";
import { buildView, treeFromDoc } from "../../src/strategies/tree/document-tree.js";
import type { Doc } from "../../src/types.js";
import { ScriptedLlm } from "../support/scripted-llm.js";
import { agTree, pagedTree } from "./fixtures.js";

const expand = JSON.stringify({ action: "expand", section_id: "sec_a" });

describe("bounds", () => {
  it("a token budget stops an agentic loop before its hop cap", async () => {
    const llm = new ScriptedLlm([expand], "m", { repeatLast: true });
    const r = await new AgenticStrategy(llm, { maxHops: 50 }).select(
      agTree(),
      "q",
      {},
      { maxTotalTokens: 1500 },
    );
    expect(llm.calls).toBeLessThan(50);
    expect(r.stopped).toBe("tokens");
    expect(r.selectedIds).toEqual([]);
  });

  it("a run deadline stops a treewalk loop (injected clock) and every call gets a timeout within it", async () => {
    let now = 0;
    const llm = new ScriptedLlm(() => {
      now += 400;
      return JSON.stringify({ tool: "get_pages", start_page: 1, end_page: 2 });
    });
    const r = await new TreeWalkStrategy(llm, { maxHops: 50 }).select(
      pagedTree(),
      "q",
      {},
      { timeoutMs: 1000, callTimeoutMs: 700, now: () => now },
    );
    expect(llm.calls).toBe(3);
    expect(r.stopped).toBe("time");
    expect(llm.requests[0]!.timeoutMs).toBe(700);
    expect(llm.requests[2]!.timeoutMs).toBe(200);
  });

  it("an aborted signal makes no call", async () => {
    const llm = new ScriptedLlm([]);
    const controller = new AbortController();
    controller.abort();
    const turns = new ModelTurns(llm, { signal: controller.signal });
    expect(await turns.chat({ messages: [] }, "x")).toBeUndefined();
    expect(turns.stopped()).toBe("aborted");
    expect(llm.calls).toBe(0);
  });

  it("a model reply of the wrong type degrades to empty text", async () => {
    const llm = {
      model: "m",
      chat: async () => ({
        text: 42 as unknown as string,
        model: "m",
        usage: { inputTokens: Number.NaN, outputTokens: -1 },
      }),
    };
    const turns = new ModelTurns(llm);
    expect((await turns.chat({ messages: [] }, "x"))?.text).toBe("");
    expect(turns.usage.totalTokens).toBe(0);
  });
});

describe("treeFromDoc", () => {
  const doc: Doc = {
    collection: "c",
    id: "manual.pdf",
    title: "Manual",
    text: "",
    sections: [
      { headingPath: ["Manual"], heading: "Manual", level: 1, content: "", pages: { start: 1, end: 1 } },
      {
        headingPath: ["Manual", "Install"],
        heading: "Install",
        level: 2,
        content: "Mount it.",
        pages: { start: 2, end: 2 },
      },
      {
        headingPath: ["Manual", "Install", "Bolts"],
        heading: "Bolts",
        level: 3,
        content: "Tighten.",
        pages: { start: 3, end: 4 },
      },
      {
        headingPath: ["Manual", "Care"],
        heading: "Care",
        level: 2,
        content: "Clean it.",
        pages: { start: 5, end: 5 },
      },
    ],
  };

  it("nests by level, positional ids, pages widened upwards", () => {
    const tree = treeFromDoc(doc);
    const view = buildView(tree).map((v) => [v.id, v.depth, v.section.title, v.section.pages]);
    expect(view).toEqual([
      ["sec_1", 0, "Manual", { start: 1, end: 5 }],
      ["sec_2", 1, "Install", { start: 2, end: 4 }],
      ["sec_3", 2, "Bolts", { start: 3, end: 4 }],
      ["sec_4", 1, "Care", { start: 5, end: 5 }],
    ]);
  });

  it("several top-level sections get a synthetic root; no sections use the text", () => {
    const two = treeFromDoc({
      ...doc,
      sections: doc
        .sections!.slice(1, 2)
        .concat(doc.sections!.slice(3))
        .map((s) => ({ ...s, level: 1 })),
    });
    expect(two.root!.id).toBe("");
    expect(two.root!.children.map((c) => c.title)).toEqual(["Install", "Care"]);
    const flat = treeFromDoc({ id: "x", title: "X", text: "just text", sections: [] });
    expect(flat.root!.content).toBe("just text");
    expect(treeFromDoc({ id: "x", title: "X", text: "", sections: [] }).root).toBeNull();
  });
});
