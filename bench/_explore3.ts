import { readFileSync } from "node:fs";
import { loadBot } from "../src/bots/discovery.js";
import { openBotBackend } from "../src/connectors/open-bot-backend.js";
import type { KnowledgeEngine } from "../src/knowledge/engine.js";
import { rescueCandidates } from "../src/knowledge/hints/rescue-candidates.js";
const qs = readFileSync("/work/shared/data/pydocs/queries.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l));
const bot = await loadBot("/tmp/rescue-bot", { quiet: true });
const { backend } = await openBotBackend(bot);
const engine = backend as KnowledgeEngine;
const index = engine.collectionIndex("pydocs")!;
const lex = index.lexical;
const vocab = { documentFrequency: (t: string) => { const id = lex.termId(t); return id === undefined ? 0 : lex.documentFrequency(id); }, unitCount: (lex as any).unitCount };
const RERANK = process.argv[2] === "rr";
const FIRST = process.argv[4] === "first";
const stat: Record<string, number> = {};
const inc = (k: string) => (stat[k] = (stat[k] ?? 0) + 1);
for (const q of qs) {
  const r = engine.searchSync({ query: q.text });
  const weak = r.results.length === 0 || r.bestScore < 0.45;
  if (!weak) continue;
  const rel = (id: string) => q.relevant.some((x: string) => id.endsWith(x));
  const top5 = r.results.some((h) => rel(h.id));
  const shown = new Set(r.results.map((h) => h.id));
  const plan = rescueCandidates(q.text, vocab, r.retryHints?.relatedTerms ?? []);
  const rrf = new Map<string, { s: number; rel: number }>();
  const single: string[] = [];
  for (const c of plan.candidates) {
    const cr = engine.searchSync({ query: c.query, rerank: RERANK });
    cr.results.forEach((h, i) => {
      const e = rrf.get(h.id) ?? { s: 0, rel: 0 };
      e.s += 1 / (60 + i + 1); e.rel = Math.max(e.rel, h.relevance); rrf.set(h.id, e);
    });
    if (cr.results.slice(0, 5).some((h) => rel(h.id))) single.push(c.strategy);
  }
  if (FIRST) { const cr = engine.searchSync({ query: q.text, rerank: false }); cr.results.forEach((h, i) => { const e = rrf.get(h.id) ?? { s: 0, rel: 0 }; e.s += 1 / (60 + i + 1); e.rel = Math.max(e.rel, h.relevance); rrf.set(h.id, e); }); }
  const fused = [...rrf.entries()].filter(([id]) => !shown.has(id)).sort((a, b) => b[1].s - a[1].s).slice(0, Number(process.argv[3] ?? 5));
  const rescued = fused.some(([id]) => rel(id));
  const bestNew = Math.max(0, ...fused.map(([, e]) => e.rel));
  const tag = q.kind === "unanswerable" ? "U" : top5 ? "FA" : "MISS";
  inc(tag); if (tag === "MISS" && rescued) inc("rescued"); if (tag === "MISS" && single.length) inc("anyCand");
  console.log(tag, q.id, rescued ? "R" : "-", "best", r.bestScore.toFixed(2), "new", bestNew.toFixed(2), fused.map(([id, e]) => `${id.replace("docs/", "").replace(".html", "")}:${e.rel.toFixed(2)}${rel(id) ? "*" : ""}`).slice(0, 5).join(" "), "|", single.join(","), "|", plan.candidates.map((c) => c.query).join(" / "), "| unm", plan.unmatchedTerms.join(","));
}
console.log(stat);
