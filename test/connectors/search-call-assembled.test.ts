// The assembled bot hands the corrective pass a search as one value: a call of ours is graded from
// its structured response and its own arguments, never from its text; a call handed over as
// text alone is read from its text.
import { describe, expect, it } from "vitest";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { assembleBot } from "../../src/connectors/assemble-bot.js";
import type { CorrectCall } from "../../src/connectors/bot-runtime.js";
import { sessionConfigFor } from "../../src/connectors/copilot-sdk/copilot-bot-runtime.js";
import type { SearchRequest } from "../../src/types.js";
import { hit, response, silent, stubBackend } from "../corrective/corrective-fixtures.js";

const config = BotConfigSchema.parse({
  knowledge: { backend: "embedded", collections: { wiki: { paths: ["wiki/**"] } } },
  correctiveRetrieval: { enabled: true, grader: "signal" },
});

function weakThenFound() {
  return stubBackend((request: SearchRequest) =>
    request.query === "leave"
      ? response("leave", [hit("wiki", "2", "Leave policy", 0.9)])
      : response(request.query, [hit("wiki", "1", "Old doc", 0.2)], { broaderQuery: "leave" }),
  );
}

describe("a search call through the assembled bot", () => {
  it("is graded from its structured response: a text with no readable hit is still corrected", async () => {
    const backend = weakThenFound();
    const assembled = assembleBot({ config }, backend, {});
    const request = { query: "vacation days" };
    const call = { ...(await assembled.search(request, ["wiki"])), text: "opaque text" };
    const corrected = await assembled.correctFor()!({
      toolName: "search_knowledge",
      // Never read: the call carries its arguments.
      toolArgs: null,
      resultText: call.text,
      signal: AbortSignal.timeout(10_000),
      scope: ["wiki"],
      searchCall: call,
    });
    expect(corrected?.metadata.queriesTried).toEqual(["leave"]);
    expect(corrected?.text.startsWith("opaque text")).toBe(true);
    expect(corrected?.text).toContain("Leave policy");
  });

  it("handed over as text alone, the same opaque text has nothing to grade", async () => {
    const assembled = assembleBot({ config }, weakThenFound(), {});
    const corrected = await assembled.correctFor()!({
      toolName: "search_knowledge",
      toolArgs: { query: "vacation days" },
      resultText: "opaque text",
      signal: AbortSignal.timeout(10_000),
      scope: ["wiki"],
    });
    expect(corrected).toBeNull();
  });

  it("the Copilot tool hands its call to the session's hook whole", async () => {
    const assembled = assembleBot({ config }, weakThenFound(), {});
    const seen: CorrectCall[] = [];
    const { config: session } = sessionConfigFor(
      {
        bot: { name: "b", dir: "/tmp/b", persona: "", limits: { maxToolCalls: 5, timeoutMs: 10_000 } },
        backend: assembled.backend,
        renderResult: () => {
          throw new Error("the text-only renderer must not be used");
        },
        search: assembled.search,
        correct: async (call) => {
          seen.push(call);
          return null;
        },
      },
      () => undefined,
      silent,
      undefined,
    );
    const tool = session.tools!.find((t) => t.name === "search_knowledge")!;
    const rawArgs = { query: "vacation days", limit: 5 };
    const text = (await tool.handler!(rawArgs, {
      sessionId: "s",
      toolCallId: "c1",
      toolName: "search_knowledge",
      arguments: rawArgs,
    })) as string;
    await session.hooks!.onPostToolUse!(
      {
        sessionId: "s",
        timestamp: 0,
        cwd: "/tmp",
        toolName: "search_knowledge",
        toolArgs: { limit: 5, query: "vacation days" },
        toolResult: { textResultForLlm: text, resultType: "success" },
      } as never,
      { sessionId: "s" },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.searchCall?.args).toEqual({ query: "vacation days", limit: 5 });
    expect(seen[0]!.searchCall?.response?.results.map((h) => h.id)).toEqual(["1"]);
    expect(seen[0]!.args).toBeUndefined();
    // The hook's scope is the search tool's own list: the same allow-list as the tool's.
    expect(seen[0]!.scope).toEqual(assembled.backend.collections());
  });

  it("re-queries inside the call's scope, within the bot's list; a scope that is no list allows none", async () => {
    const twoCollections = BotConfigSchema.parse({
      knowledge: {
        backend: "embedded",
        collections: { wiki: { paths: ["wiki/**"] }, hr: { paths: ["hr/**"] } },
      },
      correctiveRetrieval: { enabled: true, grader: "signal" },
    });
    const backend = stubBackend(
      (request: SearchRequest) =>
        request.query === "leave"
          ? response("leave", [hit("wiki", "2", "Leave policy", 0.9)])
          : response(request.query, [hit("wiki", "1", "Old doc", 0.2)], { broaderQuery: "leave" }),
      ["wiki", "hr", "payroll"],
    );
    const assembled = assembleBot({ config: twoCollections }, backend, {});
    const correct = assembled.correctFor()!;
    const callWith = async (scope: unknown) => {
      const request = { query: "vacation days" };
      const call = await assembled.search(request, ["wiki", "hr", "payroll"]);
      const before = backend.requests.length;
      await correct({
        toolName: "search_knowledge",
        toolArgs: null,
        resultText: call.text,
        signal: AbortSignal.timeout(10_000),
        scope: scope as string[],
        searchCall: call,
      });
      return backend.requests.slice(before).map((r) => r.collections);
    };
    expect(await callWith(["wiki", "payroll"])).toEqual([["wiki"]]);
    expect(await callWith(["hr", "wiki"])).toEqual([["wiki", "hr"]]);
    expect(await callWith(undefined)).toEqual([]);
    expect(await callWith("wiki")).toEqual([]);
  });
});
