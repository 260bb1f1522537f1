#!/usr/bin/env node
// One before/after table of a change from two runs of `npm run bench -- docbots rescue lohelp`
// (each run's JSON results in a folder): node bench/change-before-after.mjs BEFORE_DIR AFTER_DIR.
// Every figure is read from the results; peers come from the same runs.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [beforeDir, afterDir] = process.argv.slice(2);
const read = (dir, name) => JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8"));
const before = {
  docbots: read(beforeDir, "docbots"),
  rescue: read(beforeDir, "rescue"),
  lohelp: read(beforeDir, "lohelp"),
};
const after = {
  docbots: read(afterDir, "docbots"),
  rescue: read(afterDir, "rescue"),
  lohelp: read(afterDir, "lohelp"),
};

const pct = (x) => (typeof x === "number" ? (100 * x).toFixed(1) : "–");
const arrow = (a, b) => `${a} → ${b}`;
const OURS = "second-look default";
const PEERS = ["SQLite FTS5", "MiniSearch"];

/** The signal rows of a rescue run, by bot (older runs held one bot, pydocs, at the top level). */
const signalOf = (rescue, bot) => {
  const bots = rescue.figures.bots ?? [{ bot: "pydocs", rows: rescue.figures.rows }];
  return bots.find((b) => b.bot === bot)?.rows.find((r) => r.setting === "signal");
};

const lines = [
  `Before: ${before.docbots.date} (docbots), ${before.lohelp.date} (lohelp). After: ${after.docbots.date}, ${after.lohelp.date}.`,
  "",
  "### Documentation bots and classic collections (`docbots`, `rescue`; signal grader)",
  "",
  "| collection | hit@5 | hit@10 | best peer hit@5 / hit@10 (after) | false alarms | unanswerable flagged | signal rescued / flagged misses | told not covered: answer in top 5 / unanswerable | chars added on unanswerable | median chars |",
  "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
];
const rowsOf = (run) => run.docbots.figures.rows;
for (const row of rowsOf(after).filter((r) => r.system === OURS)) {
  const old = rowsOf(before).find((r) => r.collection === row.collection && r.system === OURS);
  const peers = rowsOf(after).filter((r) => r.collection === row.collection && PEERS.includes(r.system));
  const peer = peers.sort((a, b) => b.hit5 - a.hit5)[0];
  const s0 = signalOf(before.rescue, row.collection);
  const s1 = signalOf(after.rescue, row.collection);
  const rescued = (s) => (s ? `${s.rescued}/${s.flaggedMisses}` : "–");
  lines.push(
    `| ${row.collection} | ${arrow(pct(old?.hit5), pct(row.hit5))} | ${arrow(pct(old?.hit10), pct(row.hit10))} | ${peer ? `${pct(peer.hit5)} / ${pct(peer.hit10)} (${peer.system})` : "–"} | ${arrow(pct(old?.falseAlarms), pct(row.falseAlarms))} | ${arrow(pct(old?.unanswerableFlagged), pct(row.unanswerableFlagged))} | ${arrow(rescued(s0), rescued(s1))} | ${arrow(s0?.toldNotCovered ?? "–", s1?.toldNotCovered ?? "–")} | ${arrow(s0?.charsAdded ?? "–", s1?.charsAdded ?? "–")} | ${arrow(old?.medianChars ?? "–", row.medianChars ?? "–")} |`,
  );
}

lines.push(
  "",
  `### LibreOffice help, every language (\`lohelp\`; before: LOHELP_LANGUAGE=${before.lohelp.figures.mode}, after: ${after.lohelp.figures.mode})`,
  "",
  "| language | hit@5 | hit@10 | best language-aware peer hit@5 / hit@10 (after) | false alarms | unanswerable flagged | signal rescued / flagged misses | told not covered: answer in top 5 | told not covered: unanswerable | chars added on unanswerable (median) | median chars |",
  "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
);
for (const language of after.lohelp.figures.languages) {
  const old = before.lohelp.figures.languages.find((l) => l.code === language.code);
  const ours = (l) => l?.systems.find((s) => s.system === "second-look");
  const peer = language.systems
    .filter((s) => s.languageAware && !s.system.startsWith("second-look"))
    .sort((a, b) => b.hit5 - a.hit5)[0];
  const rescued = (l) => (l ? `${l.rescue.rescued}/${l.rescue.flaggedMisses}` : "–");
  const told = (l, key) => pct(l?.rescue[key]);
  lines.push(
    `| ${language.code} | ${arrow(pct(ours(old)?.hit5), pct(ours(language).hit5))} | ${arrow(pct(ours(old)?.hit10), pct(ours(language).hit10))} | ${peer ? `${pct(peer.hit5)} / ${pct(peer.hit10)} (${peer.system})` : "–"} | ${arrow(pct(old?.weak.falseAlarms), pct(language.weak.falseAlarms))} | ${arrow(pct(old?.weak.unanswerableFlagged), pct(language.weak.unanswerableFlagged))} | ${arrow(rescued(old), rescued(language))} | ${arrow(told(old, "toldNotCoveredAnswerInTop5"), told(language, "toldNotCoveredAnswerInTop5"))} | ${arrow(told(old, "toldNotCoveredUnanswerable"), told(language, "toldNotCoveredUnanswerable"))} | ${arrow(old?.rescue.charsAddedOnUnanswerableMedian ?? "–", language.rescue.charsAddedOnUnanswerableMedian)} | ${arrow(old?.medianChars ?? "–", language.medianChars)} |`,
  );
}
process.stdout.write(`${lines.join("\n")}\n`);
