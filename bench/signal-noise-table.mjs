#!/usr/bin/env node
// The signal grader's rescue and noise before/after a change of its append rule, read from two
// `npm run bench -- lohelp rescue` runs (JSON results): node bench/signal-noise-table.mjs
// lohelp-before.json lohelp-after.json rescue-before.json rescue-after.json. Nothing is typed in.
import { readFileSync } from "node:fs";

const [lohelpBefore, lohelpAfter, rescueBefore, rescueAfter] = process.argv
  .slice(2)
  .map((path) => JSON.parse(readFileSync(path, "utf8")));
const lines = [
  `lohelp before: ${lohelpBefore.date}; after: ${lohelpAfter.date}. rescue before: ${rescueBefore.date}; after: ${rescueAfter.date}.`,
  "",
  "### LibreOffice help, signal grader, every language",
  "",
  "| language | hit@5 before → after | rescued / flagged misses before → after | chars added on unanswerable (median) before → after |",
  "| --- | --: | --: | --: |",
];
const sums = { before: [0, 0], after: [0, 0] };
lohelpAfter.figures.languages.forEach((after, i) => {
  const before = lohelpBefore.figures.languages[i];
  const hit = (l) => (100 * l.systems[0].hit5).toFixed(1);
  sums.before[0] += before.rescue.rescued;
  sums.before[1] += before.rescue.flaggedMisses;
  sums.after[0] += after.rescue.rescued;
  sums.after[1] += after.rescue.flaggedMisses;
  lines.push(
    `| ${after.code} | ${hit(before)} → ${hit(after)} | ${before.rescue.rescued} / ${before.rescue.flaggedMisses} → ${after.rescue.rescued} / ${after.rescue.flaggedMisses} | ${before.rescue.charsAddedOnUnanswerableMedian} → ${after.rescue.charsAddedOnUnanswerableMedian} |`,
  );
});
lines.push(`| all | | ${sums.before.join(" / ")} → ${sums.after.join(" / ")} | |`, "");
lines.push("### Documentation bots (`rescue`; auto and haiku are replayed)", "");
lines.push(
  "| bot | setting | rescued / flagged misses before → after | chars added on unanswerable before → after |",
);
lines.push("| --- | --- | --: | --: |");
const bots = (result) => result.figures.bots;
bots(rescueAfter).forEach((bot, b) => {
  const old = bots(rescueBefore)[b];
  bot.rows.forEach((row, r) => {
    const o = old.rows[r];
    lines.push(
      `| ${bot.bot} | ${row.setting}${row.replayed ? " (replayed)" : ""} | ${o.rescued} / ${o.flaggedMisses} → ${row.rescued} / ${row.flaggedMisses} | ${o.charsAdded} → ${row.charsAdded} |`,
    );
  });
});
process.stdout.write(`${lines.join("\n")}\n`);
