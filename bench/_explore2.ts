import { readFileSync, writeFileSync } from "node:fs";
import { loadBot } from "../src/bots/discovery.js";
import { openBotBackend } from "../src/connectors/open-bot-backend.js";
import type { KnowledgeEngine } from "../src/knowledge/engine.js";
import { termOf, words } from "../src/knowledge/index/analyzer.js";
const qs = readFileSync("/work/shared/data/pydocs/queries.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l));
const bot = await loadBot("/tmp/rescue-bot", { quiet: true });
const { backend } = await openBotBackend(bot);
const engine = backend as KnowledgeEngine;
const index = engine.collectionIndex("pydocs")!;
const lex = index.lexical;
for (const q of qs) {
  const r = engine.searchSync({ query: q.text });
  const weak = r.results.length === 0 || r.bestScore < 0.45;
  const rel = (id: string) => q.relevant.some((x: string) => id.endsWith(x));
  const top5 = r.results.slice(0, 5).some((h) => rel(h.id));
  const ws = words(q.text).map((w) => { const t = termOf(w); if (!t) return null; const id = lex.termId(t); return `${w}:${id === undefined ? 0 : lex.documentFrequency(id)}`; }).filter(Boolean);
  if (weak || q.kind === "unanswerable") console.log(q.id, q.kind[0], weak ? "W" : "-", top5 ? "T" : "-", r.bestScore.toFixed(2), ws.join(" "));
}
console.log("units", lex.unitCount ?? (index as any).lexical.unitCount);
