// Huginn's search JSON → our SearchResponse: the reference's exact examples (huginn §2 and §4
// (a)–(e)) normalise to responses that render to the adapter's exact text, and JSON that does
// not follow the contract is bounded, dropped or refused, never trusted.
import { describe, expect, it } from "vitest";
import { normalizeSearchResponse, RESPONSE_LIMITS } from "../../../src/backends/huginn/huginn-response.js";
import { renderSearchResponse } from "../../../src/knowledge-tool/render.js";
import {
  bodyE,
  responseA,
  responseB,
  responseC1,
  responseC2,
  responseD,
  responseE,
  textA,
  textB,
  textC1,
  textC2,
  textD,
} from "../../knowledge-tool/huginn-fixtures.js";

const TEAM = new Set(["team-wiki", "jira-issues"]);

function normalize(json: unknown, query = "q", allowed: ReadonlySet<string> = TEAM, limit = 10) {
  const normalized = normalizeSearchResponse(json, query, allowed, limit);
  if (!normalized) throw new Error("not a search response");
  return normalized;
}

// §2's example, verbatim: full mode, reranked, two hits.
const jsonA = {
  results: [
    {
      collection: "team-wiki",
      id: "guides/Onboarding Guide.md",
      title: "Onboarding Guide.md",
      url: "https://wiki.example/onboarding",
      relevance: 0.998,
      matchedChunks: [
        {
          content: "New hires get laptop access on day one. VPN setup follows the IT checklist.",
          heading: "First day",
          relevance: 0.998,
        },
      ],
      modifiedTime: "2026-05-02T09:15:00Z",
      breadcrumb: "guides > Onboarding Guide",
      confidenceBand: "high",
    },
    {
      collection: "team-wiki",
      id: "it/VPN.md",
      title: "VPN.md",
      url: "https://wiki.example/vpn",
      relevance: 0.56,
      matchedChunks: [
        {
          content: "Install the VPN client from the self-service portal.",
          heading: null,
          metadata: { Owner: "IT" },
          relevance: 0.56,
        },
      ],
      metadata: { Owner: "IT" },
      confidenceBand: "medium",
    },
  ],
  bestScore: 0.998,
  reranked: true,
};

const vpnBrief = (relevance: number, snippet: string) => ({
  collection: "team-wiki",
  id: "it/VPN.md",
  title: "VPN.md",
  url: "https://wiki.example/vpn",
  snippet,
  relevance,
  confidenceBand: "medium",
});

describe("normalizeSearchResponse: the reference's examples", () => {
  it("(a) full mode: chunks, breadcrumb, date, metadata; renders to the adapter's text", () => {
    const { response, dropped } = normalize(jsonA, responseA.query);
    expect(dropped).toEqual({ malformed: 0, outOfScope: 0 });
    expect(response).toEqual(responseA);
    expect(renderSearchResponse(response, { brief: false })).toBe(textA);
  });

  it("(b) brief, weak, broader hint with its strategy", () => {
    const json = {
      results: [vpnBrief(0.44, "Install the VPN client from the self-service portal.")],
      bestScore: 0.44,
      reranked: true,
      retryHints: { broaderQuery: "tibetansk pensjonsavtale", broaderQueryStrategy: "drop_last_word" },
    };
    const { response } = normalize(json, responseB.query);
    expect(response).toEqual(responseB);
    expect(renderSearchResponse(response, { brief: true })).toBe(textB);
  });

  it("(c) empty: noConfidentResults, lowConfidence, every kind of hint (detectedEntities ignored)", () => {
    const c1 = normalize(
      {
        results: [],
        bestScore: 0.0,
        reranked: true,
        noConfidentResults: true,
        lowConfidence: true,
        retryHints: { broaderQuery: "tibetansk pensjonsavtale", broaderQueryStrategy: "drop_last_word" },
      },
      responseC1.query,
    ).response;
    expect(c1).toEqual(responseC1);
    expect(renderSearchResponse(c1, { brief: true })).toBe(textC1);
    const c2 = normalize(
      {
        results: [],
        bestScore: 0.0,
        reranked: true,
        noConfidentResults: true,
        retryHints: { detectedEntities: ["LA_BUC_02"], ...responseC2.retryHints },
      },
      responseC2.query,
    ).response;
    expect(c2).toEqual(responseC2);
    expect(renderSearchResponse(c2, { brief: true })).toBe(textC2);
  });

  it("(d) Huginn's own rescue: the corrective block becomes `rescue`", () => {
    const json = {
      results: [
        {
          collection: "team-wiki",
          id: "pension/Tibet.md",
          title: "Tibet.md",
          url: "https://wiki.example/tibet",
          snippet: "The pension agreement covers...",
          relevance: 0.973,
          confidenceBand: "high",
        },
        vpnBrief(0.421, "Install the VPN client."),
      ],
      bestScore: 0.973,
      reranked: true,
      corrective: {
        mode: "auto",
        retries: 1,
        rescueFired: true,
        verdict: "rescued",
        queriesTried: ["tibetansk pensjonsavtale vurdering", "tibetansk pensjonsavtale"],
        rescueStrategy: "drop_last_word",
      },
    };
    const { response } = normalize(json, responseD.query);
    expect(response).toEqual(responseD);
    expect(renderSearchResponse(response, { brief: true })).toBe(textD);
  });

  it("(e) graph_answer, lowConfidence, heading, WIP, breadcrumb, graph_context, metadata", () => {
    const json = {
      results: [
        {
          collection: "jira-issues",
          id: "PROJ-1234_Fix_login.md",
          title: "PROJ-1234_Fix_login",
          url: "https://jira.example/browse/PROJ-1234",
          snippet: "Login fails when the session cookie expires.",
          relevance: 0.75,
          modifiedTime: "2026-04-01T10:00:00Z",
          breadcrumb: "PROJ > Auth epic",
          heading: "Description",
          metadata: { wip: "true", page_id: "12345", Status: "Open" },
          confidenceBand: "medium",
          graph_context: ["PROJ-1234 tilhører epic PROJ-1000"],
        },
      ],
      bestScore: 0.75,
      reranked: false,
      graph_answer: "PROJ-1000 har 3 issues: PROJ-1234, PROJ-1235, PROJ-1236",
      lowConfidence: true,
      traceId: "a3f8b21c4e9d0a55",
    };
    const { response } = normalize(json, responseE.query);
    expect(response).toEqual(responseE);
    expect(renderSearchResponse(response, { brief: true })).toBe(bodyE);
  });
});

describe("normalizeSearchResponse: JSON that does not follow the contract", () => {
  const good = (over: Record<string, unknown> = {}) => ({
    collection: "team-wiki",
    id: "a.md",
    title: "A",
    relevance: 0.8,
    confidenceBand: "high",
    ...over,
  });

  it("is refused without a results list", () => {
    for (const json of [null, 42, "x", [], {}, { results: "nope" }, { results: {} }]) {
      expect(normalizeSearchResponse(json, "q", TEAM, 10)).toBeUndefined();
    }
  });

  it("drops hits that cannot be cited or graded, and counts them", () => {
    const { response, dropped } = normalize({
      results: [
        good(),
        good({ id: undefined }),
        good({ id: "" }),
        good({ collection: 7 }),
        good({ relevance: "0.9" }),
        good({ relevance: Number.NaN }),
        null,
        "hit",
        good({ id: "b.md" }),
      ],
      bestScore: 0.8,
      reranked: true,
    });
    expect(response.results.map((h) => h.id)).toEqual(["a.md", "b.md"]);
    expect(dropped.malformed).toBe(7);
  });

  it("drops hits from collections outside the allow-list; bestScore then comes from the hits kept", () => {
    const { response, dropped } = normalize(
      {
        results: [good({ collection: "secret", id: "s.md", relevance: 0.99 }), good({ relevance: 0.42 })],
        bestScore: 0.99,
        reranked: true,
      },
      "q",
      new Set(["team-wiki"]),
    );
    expect(response.results.map((h) => h.collection)).toEqual(["team-wiki"]);
    expect(dropped.outOfScope).toBe(1);
    expect(response.bestScore).toBe(0.42);
  });

  it("with every hit out of scope the response is empty and says so", () => {
    const { response } = normalize(
      { results: [good({ collection: "secret" })], bestScore: 0.8, reranked: true },
      "q",
      new Set(["team-wiki"]),
    );
    expect(response.results).toEqual([]);
    expect(response.noConfidentResults).toBe(true);
    expect(response.bestScore).toBe(0);
  });

  it("cuts the list to the limit and bounds every field", () => {
    const huge = "x".repeat(100_000);
    const { response } = normalize(
      {
        results: Array.from({ length: 50 }, (_, i) =>
          good({
            id: `d${i}.md`,
            title: huge,
            snippet: huge,
            url: huge,
            breadcrumb: huge,
            matchedChunks: Array.from({ length: 40 }, () => ({ content: huge, heading: huge })),
            metadata: Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`k${k}`, huge])),
            graph_context: Array.from({ length: 100 }, () => huge),
          }),
        ),
        bestScore: 0.8,
        reranked: true,
      },
      "q",
      TEAM,
      5,
    );
    expect(response.results).toHaveLength(5);
    const hit = response.results[0]!;
    expect(hit.title.length).toBe(RESPONSE_LIMITS.titleChars + 1);
    expect(hit.snippet!.length).toBe(RESPONSE_LIMITS.snippetChars + 1);
    expect(hit.chunks).toHaveLength(RESPONSE_LIMITS.chunksPerHit);
    expect(hit.chunks![0]!.content.length).toBe(RESPONSE_LIMITS.chunkChars + 1);
    expect(Object.keys(hit.metadata!)).toHaveLength(RESPONSE_LIMITS.metadataEntries);
    expect(hit.graphContext).toHaveLength(RESPONSE_LIMITS.graphContextEntries);
    expect(JSON.stringify(response).length).toBeLessThan(5 * 150_000);
  });

  it("reads wrong types as absent: band from relevance, numbers clamped, flags only when true", () => {
    const { response } = normalize({
      results: [
        good({
          confidenceBand: "excellent",
          relevance: 1.7,
          url: 5,
          snippet: ["x"],
          metadata: [1],
          heading: {},
        }),
      ],
      bestScore: "high",
      reranked: "yes",
      noConfidentResults: "true",
      lowConfidence: 1,
      graph_answer: { text: "x" },
      corrective: { verdict: "maybe", queriesTried: ["a", "b"] },
    });
    expect(response.results[0]).toEqual({
      collection: "team-wiki",
      id: "a.md",
      title: "A",
      relevance: 1,
      band: "high",
    });
    expect(response.bestScore).toBe(1);
    expect(response.reranked).toBe(false);
    expect(response).not.toHaveProperty("noConfidentResults");
    expect(response).not.toHaveProperty("lowConfidence");
    expect(response).not.toHaveProperty("graphAnswer");
    expect(response).not.toHaveProperty("rescue");
  });

  it("refuses over-long or blank hint queries (a cut query would be another query) and bounds related terms", () => {
    const { response } = normalize({
      results: [],
      bestScore: 0,
      reranked: true,
      retryHints: {
        broaderQuery: "b".repeat(RESPONSE_LIMITS.queryChars + 1),
        narrowerQuery: "   ",
        relatedTerms: Array.from({ length: 100 }, (_, i) => `t${i}`),
      },
    });
    expect(response.retryHints?.broaderQuery).toBeUndefined();
    expect(response.retryHints?.narrowerQuery).toBeUndefined();
    expect(response.retryHints?.relatedTerms).toHaveLength(RESPONSE_LIMITS.relatedTerms);
  });

  it("ignores a `__proto__` metadata key", () => {
    const json = JSON.parse(
      '{"results":[{"collection":"team-wiki","id":"a.md","title":"A","relevance":0.8,"metadata":{"__proto__":"x","Owner":"IT"}}],"bestScore":0.8,"reranked":true}',
    );
    const hit = normalize(json).response.results[0]!;
    expect(hit.metadata).toEqual({ Owner: "IT" });
    expect(Object.getPrototypeOf(hit.metadata)).toBe(Object.prototype);
  });
});
