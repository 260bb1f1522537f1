import { describe, expect, it } from "vitest";
import type { CorrectiveRecord } from "../../../src/connectors/bot-runtime.js";
import { canonicalJson, toolCallKey } from "../../../src/connectors/copilot-sdk/call-key.js";
import { CallMatcher } from "../../../src/connectors/copilot-sdk/call-matcher.js";

// The matcher carries a record without reading it: an opaque tag stands in for real metadata.
const record = (tag: string) => ({ changed: true, metadata: { tag } }) as unknown as CorrectiveRecord;

describe("CallMatcher", () => {
  it("parallel calls whose hooks run and settle out of order keep their own outcomes", () => {
    const m = new CallMatcher();
    m.noteStart("c1", "search_knowledge", { query: "alpha" });
    m.noteStart("c2", "search_knowledge", { query: "beta" });
    m.noteStart("c3", "get_document", { collection: "a", doc_id: "1" });
    // beta's hook enters first; alpha's correction settles last (positional slots would swap them).
    const beta = m.claim("search_knowledge", { query: "beta" });
    const alpha = m.claim("search_knowledge", { query: "alpha" });
    beta.settle(record("beta"));
    alpha.settle(record("alpha"));
    expect(m.recordFor("c1")?.metadata).toEqual({ tag: "alpha" });
    expect(m.recordFor("c2")?.metadata).toEqual({ tag: "beta" });
    expect(m.recordFor("c3")).toBeUndefined();
  });

  it("matches argument objects whatever their key order, and MCP names by their bare tool", () => {
    const m = new CallMatcher();
    m.noteStart("c1", "knowledge-search_knowledge", { query: "q", limit: 3, collection: "wiki" });
    m.claim("mcp__knowledge__search_knowledge", { collection: "wiki", limit: 3, query: "q" }).settle(
      record("x"),
    );
    expect(m.recordFor("c1")).toEqual(record("x"));
  });

  it("identical calls are consumed first in, first out", () => {
    const m = new CallMatcher();
    m.noteStart("c1", "search_knowledge", { query: "same" });
    m.noteStart("c2", "search_knowledge", { query: "same" });
    const first = m.claim("search_knowledge", { query: "same" });
    const second = m.claim("search_knowledge", { query: "same" });
    second.settle(record("second"));
    first.settle(record("first"));
    expect(m.recordFor("c1")?.metadata).toEqual({ tag: "first" });
    expect(m.recordFor("c2")?.metadata).toEqual({ tag: "second" });
  });

  it("a skipped hook still consumes its call, so a later identical call is not misattributed", () => {
    const m = new CallMatcher();
    m.noteStart("c1", "search_knowledge", { query: "same" });
    m.claim("search_knowledge", { query: "same" }).settle(undefined);
    m.noteStart("c2", "search_knowledge", { query: "same" });
    m.claim("search_knowledge", { query: "same" }).settle(record("second"));
    expect(m.recordFor("c1")).toBeUndefined();
    expect(m.recordFor("c2")?.metadata).toEqual({ tag: "second" });
  });

  it("a hook that arrives before its start event is bound when the event comes", () => {
    const m = new CallMatcher();
    const claim = m.claim("search_knowledge", { query: "early" });
    claim.settle(record("early"));
    m.noteStart("c9", "search_knowledge", { query: "early" });
    expect(m.recordFor("c9")?.metadata).toEqual({ tag: "early" });
  });

  it("settles once", () => {
    const m = new CallMatcher();
    m.noteStart("c1", "search_knowledge", { query: "q" });
    const claim = m.claim("search_knowledge", { query: "q" });
    claim.settle(record("one"));
    claim.settle(record("two"));
    expect(m.recordFor("c1")?.metadata).toEqual({ tag: "one" });
  });
});

describe("call keys", () => {
  it("canonical JSON sorts keys at every level and survives odd values", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson(undefined)).toBe("null");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).not.toThrow();
  });

  it("keys are bounded in size whatever the arguments", () => {
    expect(toolCallKey("search_knowledge", { query: "x".repeat(100_000) }).length).toBeLessThan(80);
    expect(toolCallKey("search_knowledge", { n: 10n })).toContain("search_knowledge");
  });
});
