#!/usr/bin/env node
// Before/after table of a loader change from two `npm run bench -- docbots` results (JSON):
// node bench/page-chrome-table.mjs before.json after.json > out.md. Every figure is read from them.
import { readFileSync } from "node:fs";

const [beforePath, afterPath] = process.argv.slice(2);
const before = JSON.parse(readFileSync(beforePath, "utf8"));
const after = JSON.parse(readFileSync(afterPath, "utf8"));
const pct = (x) => (x === undefined || x === null ? "–" : `${(100 * x).toFixed(1)}`);
const key = (r) => `${r.collection}|${r.system}`;
const old = new Map(before.figures.rows.map((r) => [key(r), r]));
const lines = [
  `Before: ${before.date}; after: ${after.date} (\`npm run bench -- docbots\`, one after the other).`,
  "",
  "| collection | system | hit@5 before → after | hit@10 before → after | MRR@10 before → after | median chars before → after |",
  "| --- | --- | --: | --: | --: | --: |",
];
for (const r of after.figures.rows) {
  const o = old.get(key(r));
  if (!o) continue;
  lines.push(
    `| ${r.collection} | ${r.system} | ${pct(o.hit5)} → ${pct(r.hit5)} | ${pct(o.hit10)} → ${pct(r.hit10)} | ${o.mrr10.toFixed(3)} → ${r.mrr10.toFixed(3)} | ${o.medianChars ?? "–"} → ${r.medianChars ?? "–"} |`,
  );
}
process.stdout.write(`${lines.join("\n")}\n`);
