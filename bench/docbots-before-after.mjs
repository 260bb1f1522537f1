#!/usr/bin/env node
// Before/after table of a change from two `npm run bench -- docbots` results (JSON):
// node bench/docbots-before-after.mjs before.json after.json [rescue-before.json rescue-after.json]
// > out.md. Every figure is read from them.
import { readFileSync } from "node:fs";

const [beforePath, afterPath, rescueBeforePath, rescueAfterPath] = process.argv.slice(2);
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
if (rescueBeforePath && rescueAfterPath) {
  const rescueBefore = JSON.parse(readFileSync(rescueBeforePath, "utf8"));
  const rescueAfter = JSON.parse(readFileSync(rescueAfterPath, "utf8"));
  lines.push(
    "",
    `Rescue (\`npm run bench -- rescue\`; auto and haiku are replayed): before ${rescueBefore.date}, after ${rescueAfter.date}.`,
    "",
    "| bot | setting | hit@5 final before → after | rescued / flagged misses before → after | false alarms before → after | chars added on unanswerable before → after | model calls / 100 before → after |",
    "| --- | --- | --: | --: | --: | --: | --: |",
  );
  rescueAfter.figures.bots.forEach((bot, b) => {
    const old = rescueBefore.figures.bots[b];
    bot.rows.forEach((row, r) => {
      const o = old.rows[r];
      lines.push(
        `| ${bot.bot} | ${row.setting}${row.replayed ? " (replayed)" : ""} | ${pct(o.finalHit5)} → ${pct(row.finalHit5)} | ${o.rescued} / ${o.flaggedMisses} → ${row.rescued} / ${row.flaggedMisses} | ${o.falseAlarms} → ${row.falseAlarms} | ${o.charsAdded} → ${row.charsAdded} | ${o.modelCallsPer100} → ${row.modelCallsPer100} |`,
      );
    });
  });
}
process.stdout.write(`${lines.join("\n")}\n`);
