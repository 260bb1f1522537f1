import type { CorrectiveMetadata } from "../../../src/types.js";
// Stand-ins for the parts other modules provide (knowledge engine, protocol renderer,
// corrective orchestrator), small enough that every byte the model should see is predictable,
// plus a model script driven by directives in the question.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  BotDescription,
  CorrectCall,
  CorrectFn,
  CorrectResult,
  RenderResult,
} from "../../../src/connectors/bot-runtime.js";
import { BotRuntimeError } from "../../../src/connectors/bot-runtime.js";
import type { KnowledgeBackend, SearchRequest, SearchResponse } from "../../../src/types.js";
import type { ModelServer, RecordedRequest } from "../../support/model-server/model-server.js";
import { latestToolResults, type ModelScript } from "../../support/model-server/script.js";

/**
 * A backend that answers every query with one hit; a query containing "weak" gets a low-relevance
 * hit. `delays` slows chosen queries down (to order parallel calls).
 */
export function tinyBackend(
  delays: Record<string, number> = {},
): KnowledgeBackend & { searches: SearchRequest[] } {
  const searches: SearchRequest[] = [];
  return {
    searches,
    collections: () => ["handbook", "wiki"],
    async search(request: SearchRequest, options?: { signal?: AbortSignal }): Promise<SearchResponse> {
      searches.push(request);
      const delay = delays[request.query] ?? 0;
      if (delay > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, delay);
          options?.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted"));
          });
        });
      }
      const weak = request.query.includes("weak");
      const relevance = weak ? 0.2 : 0.9;
      return {
        query: request.query,
        results: [
          {
            collection: request.collections?.[0] ?? "handbook",
            id: request.query.replace(/\W+/g, "-"),
            title: `Über “${request.query}” — notes`,
            snippet: "Line one.\n\tIndented line with trailing spaces.   ",
            relevance,
            band: weak ? "low" : "high",
          },
        ],
        bestScore: relevance,
        reranked: false,
      };
    },
  };
}

/** A trivial renderer with awkward bytes (non-ASCII, tabs, trailing spaces) to make byte checks bite. */
export const renderTrivial: RenderResult = (response, brief) => {
  const lines = response.results.map(
    (h) =>
      `## ${h.title} (${(h.relevance * 100).toFixed(1)}% relevant · ${h.band})\ncollection: \`${h.collection}\` doc_id: \`${h.id}\`\n${brief ? "" : (h.snippet ?? "")}`,
  );
  const footer = response.bestScore < 0.45 ? "\n\n*Weak match.*" : "";
  return `${lines.join("\n\n")}${footer}`;
};

/** The expected text of a call, computed without the runtime. */
export async function expectedOriginal(query: string, brief = false): Promise<string> {
  return renderTrivial(await tinyBackend().search({ query }), brief);
}

export function correctedText(original: string, query: string): string {
  return `${original}\n\n---\n[corrective retrieval — re-query #1: prior results graded "insufficient" (weak); re-searched "${query} broader"]\n\nCORRECTED(${query})`;
}

export interface FakeCorrect extends CorrectFn {
  calls: CorrectCall[];
}

/**
 * Corrects results carrying the weak footer; `delays` hold a query's correction back, `behaviour`
 * makes it throw or hang (ignoring its signal, as a badly written pass would).
 */
export function fakeCorrect(
  options: { delays?: Record<string, number>; behaviour?: "correct" | "throw" | "hang" } = {},
): FakeCorrect {
  const calls: CorrectCall[] = [];
  const fn = async (call: CorrectCall): Promise<CorrectResult | null> => {
    calls.push(call);
    const query = (call.toolArgs as { query: string }).query;
    const delay = options.delays?.[query] ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (options.behaviour === "throw") throw new Error("grader exploded");
    if (options.behaviour === "hang") await new Promise((r) => setTimeout(r, 60_000).unref());
    if (!call.resultText.includes("*Weak match.*")) return null;
    return {
      changed: true,
      text: correctedText(call.resultText, query),
      metadata: { query, retries: 1 } as unknown as CorrectiveMetadata,
    };
  };
  return Object.assign(fn, { calls });
}

/**
 * The model, driven by the question: `search: q` searches once, `brief-search: q` in brief mode,
 * `parallel: a | b` searches twice in one turn, `loop` searches forever; after tool results it
 * answers by echoing them verbatim.
 */
export const directiveScript: ModelScript = ({ messages }) => {
  const question = [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
  if (question.includes("loop"))
    return { kind: "tools", calls: [{ name: "search_knowledge", args: { query: "loop" } }] };
  const results = latestToolResults(messages);
  if (results.length > 0) return { kind: "text", text: results.map((r) => r.text).join("\n=====\n") };
  const parallel = /parallel: (.+) \| (.+)$/m.exec(question);
  if (parallel) {
    return {
      kind: "tools",
      calls: [
        { name: "search_knowledge", args: { query: parallel[1]!.trim() } },
        { name: "search_knowledge", args: { query: parallel[2]!.trim() } },
      ],
    };
  }
  const search = /(brief-)?search: (.+)$/m.exec(question);
  if (search) {
    const args: Record<string, unknown> = { query: search[2]!.trim() };
    if (search[1]) args.brief = true;
    return { kind: "tools", calls: [{ name: "search_knowledge", args }] };
  }
  return { kind: "text", text: "no directive" };
};

/** Tool messages (call id -> text) of the first request after `from` that carried tool results. */
export function toolMessagesAfter(
  server: ModelServer,
  from: number,
): { request: RecordedRequest; byCallId: Map<string, string> } {
  for (const request of server.requests.slice(from)) {
    const results = latestToolResults(request.parsed.messages);
    if (results.length > 0) {
      return { request, byCallId: new Map(results.map((r) => [r.toolCallId, r.text])) };
    }
  }
  throw new Error(`no request after #${from} carried tool results`);
}

export async function makeBotDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "second-look-e2e-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function botFor(
  dir: string,
  provider: BotDescription["provider"],
  limits: Partial<BotDescription["limits"]> = {},
): BotDescription {
  return {
    name: "e2e-bot",
    dir,
    persona: "You answer from the handbook. Cite doc ids.",
    model: "fake-model",
    ...(provider ? { provider } : {}),
    limits: { maxToolCalls: 8, timeoutMs: 20_000, ...limits },
  };
}

/** The hermetic host environment the runtime inherits from: no tokens, no proxies. */
export function hostEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
}

/** The BotRuntimeError `promise` rejects with; any other outcome fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<BotRuntimeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BotRuntimeError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}
