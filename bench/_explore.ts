import { readFileSync } from "node:fs";
import { loadBot } from "../src/bots/discovery.js";
import { openBotBackend } from "../src/connectors/open-bot-backend.js";
import type { KnowledgeEngine } from "../src/knowledge/engine.js";
import { renderSearchResponse } from "../src/protocol/render.js";
const qs = readFileSync("/work/shared/data/pydocs/queries.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l));
const bot = await loadBot("/tmp/rescue-bot", { quiet: true });
const { backend } = await openBotBackend(bot);
const engine = backend as KnowledgeEngine;
const rel = (q: any, id: string) => q.relevant.some((r: string) => id.endsWith(r));
let n = 0, flagged = 0, fmiss = 0, unans = 0, unansFlag = 0, fa = 0, hit5 = 0;
const out: any[] = [];
for (const q of qs) {
  const r = engine.searchSync({ query: q.text });
  const top5 = r.results.slice(0, 5).some((h) => rel(q, h.id));
  const weak = r.results.length === 0 || r.bestScore < 0.45;
  const len = renderSearchResponse(r, { brief: false }).length;
  if (q.kind === "answerable") { n++; if (top5) hit5++; if (weak) { flagged++; if (!top5) fmiss++; else fa++; } }
  else { unans++; if (weak) unansFlag++; }
  out.push({ id: q.id, kind: q.kind, text: q.text, weak, top5, best: r.bestScore, ids: r.results.slice(0,5).map((h) => h.id), hints: r.retryHints, len });
}
console.log({ n, hit5, flagged, fmiss, fa, unans, unansFlag, ids: out[0].ids });
require_write: {
  const fs = await import("node:fs");
  fs.writeFileSync("/tmp/rx/base.json", JSON.stringify(out, null, 1));
}
