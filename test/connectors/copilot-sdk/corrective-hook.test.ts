import type { CorrectiveMetadata } from "../../../src/types.js";
// The hook's contract without a runtime: it corrects only well-formed knowledge-search results,
// passes everything else through (undefined), never throws, and bounds its own time and work.

import { describe, expect, it, vi } from "vitest";
import type { CorrectCall, CorrectFn } from "../../../src/connectors/bot-runtime.js";
import { CallMatcher } from "../../../src/connectors/copilot-sdk/call-matcher.js";
import { createCorrectiveHook } from "../../../src/connectors/copilot-sdk/corrective-hook.js";
import type { PostToolUseHookInput } from "../../../src/connectors/copilot-sdk/post-tool-use-types.js";

const invocation = { sessionId: "s1" };
/** The session's search tool's collections: every call's scope. */
const SCOPE = ["wiki"];

function input(overrides: Record<string, unknown> = {}): PostToolUseHookInput {
  return {
    sessionId: "s1",
    timestamp: new Date(0),
    workingDirectory: "/tmp",
    toolName: "search_knowledge",
    toolArgs: { query: "vacation policy" },
    toolResult: { textResultForLlm: "ORIGINAL *Weak match.*", resultType: "success", toolTelemetry: {} },
    ...overrides,
  } as PostToolUseHookInput;
}

const changing: CorrectFn = async (call) => ({
  changed: true,
  text: `${call.resultText} + more`,
  metadata: { n: 1 } as unknown as CorrectiveMetadata,
});

describe("corrective hook", () => {
  it("returns the corrected text as modifiedResult, keeping the rest of the tool result", async () => {
    const correct = vi.fn(changing);
    const hook = createCorrectiveHook({ scope: SCOPE, correct });
    const out = await hook(input(), invocation);
    expect(out).toEqual({
      modifiedResult: {
        textResultForLlm: "ORIGINAL *Weak match.* + more",
        resultType: "success",
        toolTelemetry: {},
      },
    });
    const call = correct.mock.calls[0]![0] as CorrectCall;
    expect(call).toMatchObject({
      toolName: "search_knowledge",
      toolArgs: { query: "vacation policy" },
      resultText: "ORIGINAL *Weak match.*",
      scope: SCOPE,
    });
    expect(call.signal).toBeInstanceOf(AbortSignal);
  });

  it("corrects external MCP knowledge searches too", async () => {
    const hook = createCorrectiveHook({ scope: SCOPE, correct: changing });
    for (const toolName of [
      "knowledge-search_knowledge",
      "mcp__knowledge__search_knowledge",
      "knowledge__search_knowledge",
    ]) {
      expect(await hook(input({ toolName }), invocation)).toHaveProperty("modifiedResult");
    }
  });

  it.each([
    ["null", null],
    ["unchanged", { changed: false, text: "other", metadata: {} }],
    ["same text", { changed: true, text: "ORIGINAL *Weak match.*", metadata: {} }],
    ["non-string text", { changed: true, text: 42, metadata: {} }],
    ["empty text", { changed: true, text: "", metadata: {} }],
    ["not an object", "corrected!"],
  ])("passes the original through when correct returns %s", async (_label, value) => {
    const hook = createCorrectiveHook({ scope: SCOPE, correct: async () => value as never });
    expect(await hook(input(), invocation)).toBeUndefined();
  });

  it("passes through when correct throws, synchronously or not", async () => {
    const sync = createCorrectiveHook({
      scope: SCOPE,
      correct: (() => {
        throw new Error("boom");
      }) as unknown as CorrectFn,
    });
    const async_ = createCorrectiveHook({
      scope: SCOPE,
      correct: async () => Promise.reject(new Error("boom")),
    });
    expect(await sync(input(), invocation)).toBeUndefined();
    expect(await async_(input(), invocation)).toBeUndefined();
  });

  it("bounds its time: a pass that ignores its signal is abandoned at the timeout, and the signal fires", async () => {
    let seen: AbortSignal | undefined;
    const hook = createCorrectiveHook({
      scope: SCOPE,
      timeoutMs: 50,
      correct: (call) => {
        seen = call.signal;
        return new Promise(() => undefined); // never settles
      },
    });
    const started = Date.now();
    expect(await hook(input(), invocation)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(seen?.aborted).toBe(true);
  });

  it("the question's signal cancels a running pass, and an already-stopped question skips it", async () => {
    const question = new AbortController();
    const correct = vi.fn(
      (call: CorrectCall) => new Promise<null>((r) => call.signal.addEventListener("abort", () => r(null))),
    );
    const hook = createCorrectiveHook({
      scope: SCOPE,
      correct,
      timeoutMs: 10_000,
      context: () => ({ signal: question.signal }),
    });
    const pending = hook(input(), invocation);
    question.abort();
    expect(await pending).toBeUndefined();
    expect(await hook(input(), invocation)).toBeUndefined();
    expect(correct).toHaveBeenCalledTimes(1);
  });

  it("hands the turn's question to the corrective pass (a model grader judges against it)", async () => {
    const correct = vi.fn(async (_call: CorrectCall) => null);
    const hook = createCorrectiveHook({
      scope: SCOPE,
      correct,
      context: () => ({ question: "how many vacation days do I get?" }),
    });
    await hook(input(), invocation);
    expect(correct.mock.calls[0]![0].question).toBe("how many vacation days do I get?");
  });

  describe("bad input: passes through without calling correct", () => {
    const cases: [string, unknown][] = [
      ["input is null", null],
      ["input is a string", "search_knowledge"],
      ["toolName missing", input({ toolName: undefined })],
      ["another tool", input({ toolName: "get_document" })],
      ["toolArgs is a string", input({ toolArgs: '{"query":"x"}' })],
      ["toolArgs is null", input({ toolArgs: null })],
      ["toolArgs is an array", input({ toolArgs: ["x"] })],
      ["query is a number", input({ toolArgs: { query: 42 } })],
      ["query is an object", input({ toolArgs: { query: { $gt: "" } } })],
      ["query is blank", input({ toolArgs: { query: "   " } })],
      ["query is 100 KB", input({ toolArgs: { query: "q".repeat(100_000) } })],
      ["toolResult missing", input({ toolResult: undefined })],
      ["result is a failure", input({ toolResult: { textResultForLlm: "x", resultType: "failure" } })],
      ["result was denied", input({ toolResult: { textResultForLlm: "x", resultType: "denied" } })],
      ["result timed out", input({ toolResult: { textResultForLlm: "x", resultType: "timeout" } })],
      ["text is not a string", input({ toolResult: { textResultForLlm: 7, resultType: "success" } })],
      ["text is empty", input({ toolResult: { textResultForLlm: "", resultType: "success" } })],
    ];
    it.each(cases)("%s", async (_label, value) => {
      const correct = vi.fn(changing);
      const hook = createCorrectiveHook({ scope: SCOPE, correct });
      await expect(hook(value as PostToolUseHookInput, invocation)).resolves.toBeUndefined();
      expect(correct).not.toHaveBeenCalled();
    });

    it("a 10 MB result is passed through with bounded work", async () => {
      const correct = vi.fn(changing);
      const hook = createCorrectiveHook({ scope: SCOPE, correct });
      const huge = "x".repeat(10 * 1024 * 1024);
      const out = await hook(
        input({ toolResult: { textResultForLlm: huge, resultType: "success" } }),
        invocation,
      );
      // Bounded: refused on its length before any pass runs (timing lives in bench/).
      expect(out).toBeUndefined();
      expect(correct).not.toHaveBeenCalled();
    });

    it("a getter that throws inside the input does not escape", async () => {
      const hostile = input();
      Object.defineProperty(hostile, "toolArgs", {
        get() {
          throw new Error("hostile");
        },
      });
      const hook = createCorrectiveHook({ scope: SCOPE, correct: changing });
      await expect(hook(hostile, invocation)).resolves.toBeUndefined();
    });
  });

  it("records outcomes against the right call, including skipped and failed ones", async () => {
    const matcher = new CallMatcher();
    matcher.noteStart("c1", "search_knowledge", { query: "q".repeat(100_000) });
    matcher.noteStart("c2", "search_knowledge", { query: "vacation policy" });
    matcher.noteStart("c3", "search_knowledge", { query: "fails" });
    const hook = createCorrectiveHook({
      scope: SCOPE,
      correct: async (call) => {
        if ((call.toolArgs as { query: string }).query === "fails") throw new Error("x");
        return changing(call);
      },
      context: () => ({ matcher }),
    });
    await hook(input({ toolArgs: { query: "q".repeat(100_000) } }), invocation);
    await hook(input(), invocation);
    await hook(input({ toolArgs: { query: "fails" } }), invocation);
    expect(matcher.recordFor("c1")).toBeUndefined();
    expect(matcher.recordFor("c2")).toEqual({
      changed: true,
      metadata: { n: 1 } as unknown as CorrectiveMetadata,
    });
    expect(matcher.recordFor("c3")).toEqual({ changed: false, metadata: null, failure: "error" });
  });
});
