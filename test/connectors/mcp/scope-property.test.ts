// The caller's scope holds whatever the grader says (issue 32, D1): 200 seeded random cases over
// the MCP tools as a scoped HTTP token gets them (`newServer({ collections })`, what serve-http
// builds for the token) and as stdio does (`newServer()`, the bot's list), in every grader mode,
// with and without the deep fallback, against a backend that answers only what it is asked and
// one that also answers a collection outside the bot's list unasked. The grader's replies name
// other collections, in odd casing, with padding, unknown names, the in-scope one, or are no
// grade at all. In no case does the reply's text or structuredContent hold a document outside
// the scope, does the pass search or read outside it, or is the grader told of another collection.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KnowledgeTools, knowledgeTools } from "../../../src/connectors/mcp/knowledge-mcp-server.js";
import { setLogger } from "../../../src/telemetry/logger.js";
import { callAndRead } from "../../support/mcp-call.js";
import { seededRandom } from "../../support/seeded-random.js";
import { silent } from "./mcp-harness.js";
import {
  BOT_COLLECTIONS,
  botConfig,
  ENV,
  type GraderServer,
  MODES,
  type Mode,
  namedInPrompt,
  OPEN,
  outOfScopeDocuments,
  QUERY,
  SECRET,
  startGrader,
  type TemptingBackend,
  temptingBackend,
  WEAK_WORD,
  WIKI,
} from "./scope-fixtures.js";

const SEED = 0x5c09e;
const CASES = 200;
/** Cases per test: each test stays well inside its time limit (a graded case makes 1–2 model calls). */
const CHUNK = 40;

const pick = <T>(random: () => number, values: readonly T[]): T =>
  values[Math.floor(random() * values.length)]!;

const SUGGESTIONS: readonly unknown[] = [
  WIKI,
  SECRET,
  "Team-Wiki",
  "HR-SECRET",
  "hr-Secret",
  OPEN,
  "Open-Notes",
  "OPEN-NOTES",
  "nowhere",
  ` ${WIKI} `,
  `${SECRET}\n`,
  "../hr-secret",
  "*",
  `${OPEN},${SECRET}`,
  "",
  42,
  null,
  undefined,
];
const WORDS = [
  "payroll",
  "bands",
  "salary",
  "starters",
  "scale",
  WEAK_WORD,
  SECRET,
  WIKI,
  `collection:${SECRET}`,
];
const VERDICTS = [
  "insufficient",
  "insufficient",
  "ambiguous",
  "ambiguous",
  "correct",
  "INSUFFICIENT",
  "maybe",
];

function words(random: () => number): string {
  return Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, WORDS)).join(" ");
}

/** The grader's `i`-th reply: a grade naming any collection, or no grade at all. */
function graderReply(i: number): string {
  const random = seededRandom(SEED * 31 + i);
  const grade: Record<string, unknown> = {
    verdict: pick(random, VERDICTS),
    reason: "see the other collection",
  };
  const suggested = pick(random, SUGGESTIONS);
  if (suggested !== undefined) grade.suggestedCollection = suggested;
  if (random() < 0.85) grade.rewrittenQuery = words(random);
  if (random() < 0.6)
    grade.alternativeQueries = [words(random), words(random), words(random)].slice(0, 1 + (i % 3));
  if (random() < 0.3) grade.hypotheticalAnswer = `The ${suggested} collection lists ${words(random)}.`;
  const json = JSON.stringify(grade);
  const wrapping = random();
  if (wrapping < 0.1) return `Sure! Search ${SECRET} instead.`;
  if (wrapping < 0.2) return `Here is my grade:\n\`\`\`json\n${json}\n\`\`\``;
  return json;
}

const KINDS = ["token open-notes", "token team-wiki", "stdio"] as const;
type ScopeKind = (typeof KINDS)[number];

interface Case {
  n: number;
  mode: Mode;
  deep: boolean;
  leaky: boolean;
  kind: ScopeKind;
  /** The caller names its collection explicitly. */
  named: boolean;
}

function caseOf(n: number): Case {
  const random = seededRandom(SEED + n);
  return {
    n,
    mode: pick(random, MODES),
    deep: random() < 0.5,
    leaky: random() < 0.5,
    kind: pick(random, KINDS),
    named: random() < 0.3,
  };
}

function scopeOf(kind: ScopeKind): string[] {
  if (kind === "token open-notes") return [OPEN];
  if (kind === "token team-wiki") return [WIKI];
  return [...BOT_COLLECTIONS];
}

let grader: GraderServer;
const built = new Map<string, { tools: KnowledgeTools; backend: TemptingBackend }>();

/** The tools of one configuration (mode, deep fallback, backend), built once and reused. */
function toolsFor(c: Case) {
  const key = `${c.mode}/${c.deep}/${c.leaky}`;
  let entry = built.get(key);
  if (!entry) {
    const backend = temptingBackend({ leaky: c.leaky });
    const config = botConfig({ graderUrl: grader.url, mode: c.mode, deep: c.deep });
    entry = {
      backend,
      tools: knowledgeTools({ bot: { name: "kb", config }, backend, env: ENV, log: silent }),
    };
    built.set(key, entry);
  }
  entry.backend.searches.length = 0;
  entry.backend.reads.length = 0;
  return entry;
}

const clients = new Map<string, { client: Client; close: () => Promise<void> }>();

/** A client of the server this case's caller gets (a scoped token's, or stdio's), kept for reuse. */
async function clientFor(c: Case, scope: string[]) {
  const { tools, backend } = toolsFor(c);
  const key = `${c.mode}/${c.deep}/${c.leaky}/${c.kind}`;
  let entry = clients.get(key);
  if (!entry) {
    const server = c.kind === "stdio" ? tools.newServer() : tools.newServer({ collections: scope });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "scope-property", version: "0.0.0" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    entry = {
      client,
      close: async () => {
        await client.close();
        await server.close();
      },
    };
    clients.set(key, entry);
  }
  return { client: entry.client, backend };
}

beforeAll(async () => {
  setLogger(silent);
  grader = await startGrader(graderReply);
  // Every configuration's server and client up front, so the cases time only their calls.
  for (const mode of MODES) {
    for (const deep of [false, true]) {
      for (const leaky of [false, true]) {
        for (const kind of KINDS)
          await clientFor({ n: -1, mode, deep, leaky, kind, named: false }, scopeOf(kind));
      }
    }
  }
});

afterAll(async () => {
  for (const entry of clients.values()) await entry.close();
  await grader?.close();
});

describe("the caller's scope under random grader replies", () => {
  const chunks = Array.from({ length: CASES / CHUNK }, (_, i) => i * CHUNK);
  it.each(chunks)(
    `cases %i+${CHUNK} of ${CASES}: nothing outside the scope is searched, read, named to the grader or shown`,
    async (first) => {
      const seen = { appended: 0, graded: 0, temptedOut: 0, deepReads: 0, leakyRequeries: 0 };
      for (let n = first; n < first + CHUNK; n++) {
        const c = caseOf(n);
        const scope = scopeOf(c.kind);
        const label = `case ${n}: ${JSON.stringify(c)}`;
        const { client, backend } = await clientFor(c, scope);
        const promptsBefore = grader.prompts().length;
        const args = c.named ? { query: QUERY, collection: scope[0]! } : { query: QUERY };
        const reply = await callAndRead(client, "search_knowledge", args);

        expect(reply.isError, label).toBe(false);
        expect(outOfScopeDocuments(reply.text, scope), label).toEqual([]);
        expect(outOfScopeDocuments(JSON.stringify(reply.structured), scope), label).toEqual([]);
        const structured = reply.structured as { collections: string[]; hits: { collection: string }[] };
        expect(
          structured.collections.filter((col) => !scope.includes(col)),
          label,
        ).toEqual([]);
        expect(
          structured.hits.filter((hit) => !scope.includes(hit.collection)),
          label,
        ).toEqual([]);
        const requeries = backend.searches.filter((r) => r.rerank === true);
        for (const request of requeries) {
          expect(request.collections?.length, label).toBeGreaterThan(0);
          expect(
            request.collections!.filter((col) => !scope.includes(col)),
            label,
          ).toEqual([]);
        }
        expect(
          backend.reads.filter((read) => !scope.some((col) => read.startsWith(`${col}/`))),
          label,
        ).toEqual([]);
        const prompts = grader.prompts().slice(promptsBefore);
        for (const prompt of prompts) expect(namedInPrompt(prompt), label).toEqual(scope);

        if (reply.text.includes("[corrective retrieval — re-query #")) seen.appended++;
        seen.graded += prompts.length;
        // The grader's i-th request got graderReply(i): count those naming a collection outside the scope.
        for (let i = promptsBefore; i < promptsBefore + prompts.length; i++) {
          const suggested = /"suggestedCollection":"([^"]*)"/.exec(graderReply(i))?.[1];
          if (suggested !== undefined && !scope.includes(suggested)) seen.temptedOut++;
        }
        seen.deepReads += backend.reads.length;
        if (c.leaky) seen.leakyRequeries += requeries.length;
      }
      // The cases reach every path the property is about: not vacuous.
      expect(seen.appended).toBeGreaterThan(CHUNK / 4);
      expect(seen.graded).toBeGreaterThan(CHUNK / 2);
      expect(seen.temptedOut).toBeGreaterThan(CHUNK / 4);
      expect(seen.deepReads).toBeGreaterThan(0);
      expect(seen.leakyRequeries).toBeGreaterThan(0);
    },
  );
});
