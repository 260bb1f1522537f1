// Literal renderings from the references (huginn §4 (a)–(e), docs/reference/muninn-corrective-retrieval.md §3.5 A–D) and the responses
// that produce them. The literal texts are copied byte-for-byte; do not reformat them.
import type { Hit, SearchResponse } from "../../src/types.js";

const onboarding: Hit = {
  collection: "team-wiki",
  id: "guides/Onboarding Guide.md",
  title: "Onboarding Guide.md",
  url: "https://wiki.example/onboarding",
  relevance: 0.998,
  band: "high",
  chunks: [
    {
      heading: "First day",
      content: "New hires get laptop access on day one. VPN setup follows the IT checklist.",
    },
  ],
  modifiedTime: "2026-05-02T09:15:00Z",
  breadcrumb: "guides > Onboarding Guide",
};

const vpnFull: Hit = {
  collection: "team-wiki",
  id: "it/VPN.md",
  title: "VPN.md",
  url: "https://wiki.example/vpn",
  relevance: 0.56,
  band: "medium",
  chunks: [{ content: "Install the VPN client from the self-service portal." }],
  metadata: { Owner: "IT" },
};

/** (a) Full mode, reranked, two confident hits. */
export const responseA: SearchResponse = {
  query: "laptop access first day",
  results: [onboarding, vpnFull],
  bestScore: 0.998,
  reranked: true,
};
export const textA = [
  "## Onboarding Guide.md (99.8% relevant · high) | updated: 2026-05-02",
  "https://wiki.example/onboarding",
  "guides > Onboarding Guide",
  "collection: `team-wiki` doc_id: `guides/Onboarding Guide.md`",
  "",
  "**First day**",
  "",
  "New hires get laptop access on day one. VPN setup follows the IT checklist.",
  "",
  "## VPN.md (56.0% relevant · medium)",
  "https://wiki.example/vpn",
  "collection: `team-wiki` doc_id: `it/VPN.md`",
  "",
  "Install the VPN client from the self-service portal.",
  "",
  "*Owner: IT*",
].join("\n");

/** (b) Brief mode, reranked, weak (0.44) with a broader hint. */
export const responseB: SearchResponse = {
  query: "tibetansk pensjonsavtale vurdering",
  results: [
    {
      collection: "team-wiki",
      id: "it/VPN.md",
      title: "VPN.md",
      url: "https://wiki.example/vpn",
      snippet: "Install the VPN client from the self-service portal.",
      relevance: 0.44,
      band: "medium",
    },
  ],
  bestScore: 0.44,
  reranked: true,
  retryHints: { broaderQuery: "tibetansk pensjonsavtale", broaderQueryStrategy: "drop_last_word" },
};
export const textB = [
  "1. **VPN.md** (44.0% relevant · medium)",
  "   https://wiki.example/vpn",
  "   Install the VPN client from the self-service portal.",
  "   collection: `team-wiki` doc_id: `it/VPN.md`",
  "",
  '*Weak match — try: broader query: "tibetansk pensjonsavtale"*',
].join("\n");

/** (c) Empty, low confidence, one broader hint. */
export const responseC1: SearchResponse = {
  query: "tibetansk pensjonsavtale vurdering",
  results: [],
  bestScore: 0,
  reranked: true,
  noConfidentResults: true,
  lowConfidence: true,
  retryHints: { broaderQuery: "tibetansk pensjonsavtale", broaderQueryStrategy: "drop_last_word" },
};
export const textC1 = [
  "No results found for 'tibetansk pensjonsavtale vurdering' (low confidence).",
  "",
  '*No confident match — try: broader query: "tibetansk pensjonsavtale"*',
].join("\n");

/** (c) Empty with every kind of hint. */
export const responseC2: SearchResponse = {
  query: "hvilke SEDer er i LA_BUC_02 prosessen",
  results: [],
  bestScore: 0,
  reranked: true,
  noConfidentResults: true,
  retryHints: {
    relatedTerms: ["LA_BUC_02 Beslutning om lovvalg", "A003 Beslutning om lovvalg", "Artikkel 13"],
    narrowerQuery: "hvilke SEDer er i LA_BUC_02 prosessen LA_BUC_02 Beslutning om lovvalg",
    narrowerQueryStrategy: "entity_label_append",
    broaderQuery: "hvilke SEDer er i LA_BUC_02",
    broaderQueryStrategy: "drop_last_word",
  },
};
export const textC2 = [
  "No results found for 'hvilke SEDer er i LA_BUC_02 prosessen'.",
  "",
  '*No confident match — try: related terms: LA_BUC_02 Beslutning om lovvalg, A003 Beslutning om lovvalg, Artikkel 13 · narrower query: "hvilke SEDer er i LA_BUC_02 prosessen LA_BUC_02 Beslutning om lovvalg" · broader query: "hvilke SEDer er i LA_BUC_02"*',
].join("\n");

/** (d) Huginn's own rescue fired; the merged list is confident. */
export const responseD: SearchResponse = {
  query: "tibetansk pensjonsavtale vurdering",
  results: [
    {
      collection: "team-wiki",
      id: "pension/Tibet.md",
      title: "Tibet.md",
      url: "https://wiki.example/tibet",
      snippet: "The pension agreement covers...",
      relevance: 0.973,
      band: "high",
    },
    {
      collection: "team-wiki",
      id: "it/VPN.md",
      title: "VPN.md",
      url: "https://wiki.example/vpn",
      snippet: "Install the VPN client.",
      relevance: 0.421,
      band: "medium",
    },
  ],
  bestScore: 0.973,
  reranked: true,
  rescue: {
    verdict: "rescued",
    queriesTried: ["tibetansk pensjonsavtale vurdering", "tibetansk pensjonsavtale"],
    strategy: "drop_last_word",
  },
};
export const textD = [
  "1. **Tibet.md** (97.3% relevant · high)",
  "   https://wiki.example/tibet",
  "   The pension agreement covers...",
  "   collection: `team-wiki` doc_id: `pension/Tibet.md`",
  "",
  "2. **VPN.md** (42.1% relevant · medium)",
  "   https://wiki.example/vpn",
  "   Install the VPN client.",
  "   collection: `team-wiki` doc_id: `it/VPN.md`",
  "",
  '*Rescued via broader query "tibetansk pensjonsavtale" [drop_last_word] — original query "tibetansk pensjonsavtale vurdering" found no confident match.*',
].join("\n");

/** (e) Brief, non-reranked: graph answer, low-confidence banner, heading, WIP, context, metadata. */
export const responseE: SearchResponse = {
  query: "PROJ-1000 issues",
  results: [
    {
      collection: "jira-issues",
      id: "PROJ-1234_Fix_login.md",
      title: "PROJ-1234_Fix_login",
      url: "https://jira.example/browse/PROJ-1234",
      heading: "Description",
      breadcrumb: "PROJ > Auth epic",
      snippet: "Login fails when the session cookie expires.",
      relevance: 0.75,
      band: "medium",
      modifiedTime: "2026-04-01T10:00:00Z",
      metadata: { wip: "true", page_id: "12345", Status: "Open" },
      graphContext: ["PROJ-1234 tilhører epic PROJ-1000"],
    },
  ],
  bestScore: 0.75,
  reranked: false,
  lowConfidence: true,
  graphAnswer: "PROJ-1000 har 3 issues: PROJ-1234, PROJ-1235, PROJ-1236",
};
/** Huginn's pointer marker as its adapter appends it (blank line before, newline after). */
export const traceUrlMarkerE = "\n\nhuginn-trace-url: http://localhost:8321/api/trace/a3f8b21c4e9d0a55\n";
export const bodyE = [
  "**Graph:**",
  "PROJ-1000 har 3 issues: PROJ-1234, PROJ-1235, PROJ-1236",
  "",
  "",
  "*Low confidence results — query may not match indexed content well.*",
  "",
  "",
  "1. **PROJ-1234_Fix_login** > Description **[UNDER ARBEID]** (75.0% relevant · medium) | 2026-04-01",
  "   https://jira.example/browse/PROJ-1234",
  "   PROJ > Auth epic",
  "   Login fails when the session cookie expires.",
  "   *PROJ-1234 tilhører epic PROJ-1000*",
  "   *Status: Open*",
  "   collection: `jira-issues` doc_id: `PROJ-1234_Fix_login.md`",
].join("\n");
export const textE = bodyE + traceUrlMarkerE;

// --- docs/reference/muninn-corrective-retrieval.md §3.5 ---

/** A: a confident full-mode hit. */
export const muninnResponseA: SearchResponse = {
  query: "knowledge graph rag",
  results: [
    {
      collection: "wiki",
      id: "abc-123",
      title: "Knowledge Graph RAG",
      url: "https://example.test/kg-rag",
      breadcrumb: "Architecture / Retrieval",
      relevance: 0.823,
      band: "high",
      modifiedTime: "2026-05-01T12:00:00Z",
      chunks: [{ heading: "Overview", content: "It combines a graph with vector search." }],
    },
  ],
  bestScore: 0.823,
  reranked: true,
};
export const muninnTextA = [
  "## Knowledge Graph RAG (82.3% relevant · high) | updated: 2026-05-01",
  "https://example.test/kg-rag",
  "Architecture / Retrieval",
  "collection: `wiki` doc_id: `abc-123`",
  "",
  "**Overview**",
  "",
  "It combines a graph with vector search.",
].join("\n");

/** B: a weak match with a usable hint (hand-written by muninn: `12%` without a decimal). */
export const muninnTextB = [
  "## Marginal hit (12% relevant · low)",
  "collection: `wiki` doc_id: `1`",
  "",
  "meh",
  "",
  '*Weak match — try: broader query: "LA_BUC concepts"*',
].join("\n");
/** B after one corrective re-query, exactly as muninn's test expects it. */
export const muninnMergedB = [
  "## Marginal hit (12% relevant · low)",
  "collection: `wiki` doc_id: `1`",
  "",
  "meh",
  "",
  "---",
  '[corrective retrieval — re-query #1: prior results graded "insufficient" (Huginn flagged the result as low confidence); re-searched "LA_BUC concepts" in collection wiki; 1 additional result below, deduped against the results above]',
  "",
  "## Wider hit (70.0% relevant · high)",
  "collection: `wiki` doc_id: `2`",
  "",
  "useful",
].join("\n");
export const muninnWiderHit: Hit = {
  collection: "wiki",
  id: "2",
  title: "Wider hit",
  // High band: the signal grader appends only a clearly found re-query (src/corrective/corrective-pass.ts).
  relevance: 0.7,
  band: "high",
  chunks: [{ content: "useful" }],
};

/** C: no results, with a narrower hint. */
export const muninnTextC = [
  "No results found for 'xyz'.",
  "",
  '*No confident match — try: narrower query: "xyz precise term"*',
].join("\n");

/** D: a weak body followed by Huginn's inline trace fence. */
export const muninnBodyD = [
  "## Old doc (20.0% relevant · low)",
  "collection: `wiki` doc_id: `1`",
  "",
  "weak body",
].join("\n");
export const muninnFenceD = '\n\n```huginn-trace\n{"schemaVersion":1,"totalMs":42}\n```';
export const muninnTextD = muninnBodyD + muninnFenceD;
