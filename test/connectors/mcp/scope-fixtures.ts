// A bot whose corrective pass is tempted out of its caller's scope, for the scope tests (issue 32,
// D1): collections `open-notes` and `team-wiki`, and a backend that also holds `hr-secret`, a
// collection outside the bot's list (a Huginn server with more collections than the bot may use).
// Every document names its collection (`DOC-OF-<collection>` in its title and body, its id
// `<collection>-doc-<n>.md`), so a reply that carries one is found by its text. The grader and the
// deep fallback's model are a scripted provider on 127.0.0.1; what the grader is told is kept.
import { type BotConfigInput, BotConfigSchema } from "../../../src/bots/config-schema.js";
import { GRADER_SYSTEM_PROMPT } from "../../../src/corrective/knowledge-grader.js";
import type { Doc, Hit, KnowledgeBackend, SearchRequest, SearchResponse } from "../../../src/types.js";
import {
  type ScriptedProviderServer,
  startScriptedProviderServer,
} from "../../llm/scripted-provider-server.js";

export const OPEN = "open-notes";
export const WIKI = "team-wiki";
export const SECRET = "hr-secret";
/** The bot's collections (its config lists these). */
export const BOT_COLLECTIONS = [OPEN, WIKI] as const;
/** Every collection the backend holds. */
export const HELD = [OPEN, WIKI, SECRET] as const;
export const KEY_VARIABLE = "SCOPE_TEST_KEY";
export const ENV = { [KEY_VARIABLE]: "sk-scope-test" };
/** The query every case searches: weak in every collection, so every mode re-queries. */
export const QUERY = "payroll bands for new starters";
/** A re-query holding this word answers weakly (so the deep fallback reads its documents). */
export const WEAK_WORD = "faint";

export type Mode = "signal" | "haiku" | "auto";
export const MODES: readonly Mode[] = ["signal", "haiku", "auto"];

export function botConfig(options: { graderUrl: string; mode: Mode; deep: boolean }) {
  const config: BotConfigInput = {
    model: "scope-model",
    provider: { type: "openai", baseUrl: `${options.graderUrl}/v1`, apiKeyEnv: KEY_VARIABLE },
    knowledge: {
      backend: "embedded",
      collections: { [OPEN]: { paths: ["open/*.md"] }, [WIKI]: { paths: ["wiki/*.md"] } },
    },
    correctiveRetrieval: { enabled: true, grader: options.mode, retryBudget: 2 },
    retrieval: { deepFallback: options.deep ? "agentic" : "off" },
  };
  return BotConfigSchema.parse(config);
}

export interface TemptingBackend extends KnowledgeBackend {
  searches: SearchRequest[];
  /** `collection/id` of every document read (the deep fallback's reads). */
  reads: string[];
}

/**
 * Lists the bot's collections but answers any it holds. The original search (no rerank) is weak;
 * a re-query (`rerank: true`) finds a fresh high-band document per collection, weak when it holds
 * `WEAK_WORD`. `leaky`: every re-query's answer also carries an `hr-secret` document first, asked
 * for or not (a backend that ignores the request's collections).
 */
export function temptingBackend(options: { leaky?: boolean } = {}): TemptingBackend {
  const searches: SearchRequest[] = [];
  const reads: string[] = [];
  return {
    searches,
    reads,
    collections: () => [...BOT_COLLECTIONS],
    async search(request): Promise<SearchResponse> {
      searches.push(structuredClone(request));
      const careful = request.rerank === true;
      const named = request.collections?.length ? request.collections : [...BOT_COLLECTIONS];
      const relevance = !careful || request.query.includes(WEAK_WORD) ? 0.12 : 0.86;
      const n = careful ? 1 + (hash(request.query) % 7) : 0;
      const results = named
        .filter((c) => (HELD as readonly string[]).includes(c))
        .map((c) => doc(c, n, relevance));
      if (options.leaky && careful) results.unshift(doc(SECRET, n, 0.97));
      const response: SearchResponse = {
        query: request.query,
        results,
        bestScore: Math.max(0, ...results.map((h) => h.relevance)),
        reranked: careful,
      };
      if (!careful) {
        response.retryHints = {
          rescueQueries: [
            { query: "payroll overview", strategy: "drop_terms" },
            { query: `payroll ${WEAK_WORD}`, strategy: "drop_terms" },
          ],
        };
      }
      return response;
    },
    async getDocument(collection, id): Promise<Doc | undefined> {
      reads.push(`${collection}/${id}`);
      return undefined;
    },
  };
}

function doc(collection: string, n: number, relevance: number): Hit {
  return {
    collection,
    id: `${collection}-doc-${n}.md`,
    title: `DOC-OF-${collection} ${n}`,
    relevance,
    band: relevance >= 0.65 ? "high" : relevance >= 0.4 ? "medium" : "low",
    chunks: [{ content: `Body of DOC-OF-${collection} number ${n}: payroll bands and starters.` }],
  };
}

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}

/** The documents of collections outside `scope` that `text` names (none, when the scope held). */
export function outOfScopeDocuments(text: string, scope: readonly string[]): string[] {
  return HELD.filter((c) => !scope.includes(c)).flatMap((c) =>
    [`DOC-OF-${c}`, `${c}-doc-`].filter((marker) => text.includes(marker)),
  );
}

export interface GraderServer extends ScriptedProviderServer {
  /** The user message of every grader request so far. */
  prompts(): string[];
}

/**
 * The scripted provider: a grader request is answered by `reply(i)` (i counts grader requests);
 * any other model request (the deep fallback's reads) gets an empty object.
 */
export async function startGrader(reply: (i: number) => string): Promise<GraderServer> {
  let graded = 0;
  const server = await startScriptedProviderServer((_index, request) => {
    if (!isGraderRequest(request.body)) return { reply: { kind: "text", text: "{}" } };
    return { reply: { kind: "text", text: reply(graded++) } };
  });
  return {
    ...server,
    prompts: () =>
      server.requests.filter((r) => isGraderRequest(r.body)).map((r) => userMessage(r.body) ?? ""),
  };
}

function isGraderRequest(body: Record<string, unknown>): boolean {
  const messages = body.messages as { role: string; content: unknown }[] | undefined;
  return messages?.some((m) => m.role === "system" && m.content === GRADER_SYSTEM_PROMPT) === true;
}

function userMessage(body: Record<string, unknown>): string | undefined {
  const messages = body.messages as { role: string; content: unknown }[] | undefined;
  const content = messages?.find((m) => m.role === "user")?.content;
  return typeof content === "string" ? content : undefined;
}

/** The collections a grader prompt names as available (none when it has no such line). */
export function namedInPrompt(prompt: string): string[] {
  const line = prompt.split("\n").find((l) => l.startsWith("AVAILABLE COLLECTIONS: "));
  if (!line) return [];
  return line
    .slice("AVAILABLE COLLECTIONS: ".length)
    .split(",")
    .map((name) => name.replace(/\(.*\)/, "").trim());
}
