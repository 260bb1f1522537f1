#!/usr/bin/env node
// The lohelp suite with every collection "language": "auto", before and after a change, beside the
// same suite with each collection's language tag: node bench/lohelp-auto-before-after.mjs
// BEFORE.json AFTER.json TAG.json (each a bench/results lohelp.json; BEFORE and AFTER run with
// LOHELP_LANGUAGE=auto). Every figure is read from the results; peers come from the AFTER run.
import { readFileSync } from "node:fs";

const [beforeFile, afterFile, tagFile] = process.argv.slice(2);
const read = (file) => JSON.parse(readFileSync(file, "utf8"));
const [before, after, tag] = [beforeFile, afterFile, tagFile].map(read);
for (const [file, run, mode] of [
  [beforeFile, before, "auto"],
  [afterFile, after, "auto"],
  [tagFile, tag, "tag"],
]) {
  if (run.figures.mode !== mode)
    throw new Error(`${file}: run with LOHELP_LANGUAGE=${run.figures.mode}, not ${mode}`);
}

const pct = (x) => (typeof x === "number" ? (100 * x).toFixed(1) : "–");
const language = (run, code) => run.figures.languages.find((l) => l.code === code);
const ours = (run, code) => language(run, code)?.systems.find((s) => s.system === "second-look");
const acceptance = (run, code) => run.figures.acceptance.find((a) => a.code === code);

const rows = after.figures.languages.map(({ code }) => {
  const [b, a, t] = [ours(before, code), ours(after, code), ours(tag, code)];
  const gate = acceptance(after, code);
  const [bw, aw] = [language(before, code)?.weak, language(after, code)?.weak];
  return [
    code,
    `${pct(b?.hit5)} → **${pct(a?.hit5)}**`,
    `${pct(b?.hit10)} → ${pct(a?.hit10)}`,
    pct(t?.hit5),
    `${gate.bestPeer} ${pct(gate.bestPeerHit5)} (${pct(gate.bestPeerHit5 + 0.05)})`,
    pct(gate.beforeHit5),
    `${pct(bw?.falseAlarms)} → ${pct(aw?.falseAlarms)}`,
    `${pct(bw?.unanswerableFlagged)} → ${pct(aw?.unanswerableFlagged)}`,
  ];
});

const header = [
  "language",
  "auto hit@5",
  "auto hit@10",
  "tag hit@5",
  "best language-aware peer hit@5 (+5)",
  "English-only engine hit@5",
  "false alarms",
  "unanswerable flagged",
];
const lines = [
  `## lohelp with \`"language": "auto"\`: before and after`,
  "",
  `Before: ${before.date} (${beforeFile.split("/").pop()}); after: ${after.date} (${afterFile.split("/").pop()}); both \`LOHELP_LANGUAGE=auto npm run bench -- lohelp\`, one after the other on one machine. Tag: ${tag.date} (${tagFile.split("/").pop()}), each collection's language tag. English-only: the engine before languages, as the lohelp bench records it. Percentages of the 60 answerable questions.`,
  "",
  `| ${header.join(" | ")} |`,
  `| ${header.map((_, i) => (i === 0 ? "---" : "--:")).join(" | ")} |`,
  ...rows.map((r) => `| ${r.join(" | ")} |`),
];
process.stdout.write(`${lines.join("\n")}\n`);
