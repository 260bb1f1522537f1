import { readFileSync } from "node:fs";
import { loadBot } from "../src/bots/discovery.js";
import { openBotBackend } from "../src/connectors/open-bot-backend.js";
import type { KnowledgeEngine } from "../src/knowledge/engine.js";
const qs = readFileSync("/work/shared/data/pydocs/queries.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l));
const bot = await loadBot("/tmp/rescue-bot", { quiet: true });
const { backend } = await openBotBackend(bot);
const engine = backend as KnowledgeEngine;
for (const q of qs) {
  if (q.kind !== "answerable") continue;
  const r = engine.searchSync({ query: q.text });
  const weak = r.results.length === 0 || r.bestScore < 0.45;
  const rel = (id: string) => q.relevant.some((x: string) => id.endsWith(x));
  if (!weak || r.results.slice(0, 5).some((h) => rel(h.id))) continue;
  const a = engine.searchSync({ query: q.text, limit: 50 }).results.findIndex((h) => rel(h.id));
  const b = engine.searchSync({ query: q.text, limit: 50, rerank: false }).results.findIndex((h) => rel(h.id));
  console.log(q.id, "rerank rank", a, "first-pass rank", b);
}
