/**
 * The query-rarity term with bounds, judged by what it does to the weak line's neighbours as
 * well as to the weak flag (not a suite of `npm run bench`):
 *
 *   OUT=/tmp/weak.jsonl npx tsx bench/weak-study/dump.ts
 *   node --import tsx bench/auto-rule/collect.ts /tmp/auto-main
 *   DUMP=/tmp/weak.jsonl AUTO=/tmp/auto-main npx tsx bench/weak-study/bounds.ts
 *
 * A variant adds `clamp(weight · (reference − min(rarity, cap)), −∞, raise)` to each search's
 * log-odds. Per variant: the figures off target on every visible collection (false alarms > 35 %,
 * unanswerable flagged < 70 %, as fit.ts counts them); the answered searches holding a word no
 * document contains that the line flags (the searches the free path may tell "not covered" though
 * the top 5 holds an answer); and `auto`'s asks per 100 searches and haiku's rescues it keeps on
 * every bot with recorded grader replies, its ask rule (corrective/auto-ask-rule.ts) applied to
 * the first search's relevance moved by the term (the feature tables are read without it).
 * Printed: the plain line; the studied term (rarity.ts) scaled down, with the rarity capped (a word in no
 * section counted as one in a few) and with its raise bounded, each beside the grid's best
 * variant of that kind; the grid's best keeping `auto` (every bot's rescues kept, asks within 40
 * per 100 or where they were), and that choice leave-one-collection-out. The simulation reproduces
 * the replayed `npm run bench -- rescue` figures of both the plain line and the studied term.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { autoAsksOnCoverage } from "../../src/corrective/auto-ask-rule.js";
import { WEAK_BEST_SCORE } from "../../src/weakness.js";
import type { FeatureRow } from "../auto-rule/features.js";
import { STUDIED_TERM } from "./rarity.js";

interface DumpedQuestion {
  answerable: boolean;
  answered: boolean;
  bestScore: number;
  rarity: number;
  nKnown: number;
  nTerms: number;
}
interface Collection {
  name: string;
  base: number[];
  rarity: number[];
  answered: boolean[];
  unanswerable: boolean[];
  empty: boolean[];
  absentWord: boolean[];
}
interface AutoBot {
  bot: string;
  rows: FeatureRow[];
  rarity: number[];
}
interface Variant {
  weight: number;
  reference: number;
  cap: number;
  raise: number;
}

const logit = (p: number) => {
  const q = Math.min(Math.max(p, 1e-3), 1 - 1e-3);
  return Math.log(q / (1 - q));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const line = logit(WEAK_BEST_SCORE);
const term = (v: Variant, rarity: number) =>
  Math.min(v.raise, v.weight * (v.reference - Math.min(rarity, v.cap)));
const NONE: Variant = { weight: 0, reference: 0, cap: Number.POSITIVE_INFINITY, raise: 0 };

const dumped = readFileSync(process.env.DUMP ?? "/tmp/weak.jsonl", "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { set: string; code: string; questions: DumpedQuestion[] });
const collections: Collection[] = dumped
  .filter((r) => !(r.set === "docbots" && r.code === "lohelp-en"))
  .map((r) => ({
    name: `${r.set}/${r.code}`,
    base: r.questions.map((q) => logit(q.bestScore)),
    rarity: r.questions.map((q) => q.rarity),
    answered: r.questions.map((q) => q.answered),
    unanswerable: r.questions.map((q) => !q.answerable),
    empty: r.questions.map((q) => q.bestScore <= 0),
    absentWord: r.questions.map((q) => q.nKnown < q.nTerms),
  }));

// The bots with recorded replies, their feature tables beside the same questions' rarity.
const AUTO_SOURCES: Record<string, string> = {
  pydocs: "docbots/pydocs",
  "nodejs-api": "docbots/nodejs-api",
  "handbook-en": "debian-handbook/en-us",
  "lohelp-en": "lohelp/en-us",
};
const autoBots: AutoBot[] = [];
if (process.env.AUTO) {
  for (const file of readdirSync(process.env.AUTO).filter((f) => f.endsWith(".jsonl"))) {
    const bot = file.replace(/\.jsonl$/, "");
    const source = AUTO_SOURCES[bot];
    if (!source) continue;
    const rows = readFileSync(join(process.env.AUTO, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as FeatureRow);
    const dump = dumped.find((r) => `${r.set}/${r.code}` === source)!;
    if (
      dump.questions.length !== rows.length ||
      dump.questions.some((q, i) => q.answerable !== (rows[i]!.kind === "answerable"))
    ) {
      throw new Error(`${bot}: the feature table and the dump hold different questions`);
    }
    autoBots.push({ bot, rows, rarity: dump.questions.map((q) => q.rarity) });
  }
}

function weakFigures(c: Collection, v: Variant) {
  const flagged = c.base.map((b, i) => c.empty[i]! || b + term(v, c.rarity[i]!) < line);
  const share = (of: boolean[]) => {
    const n = of.filter(Boolean).length;
    return n ? flagged.filter((f, i) => f && of[i]).length / n : null;
  };
  return {
    falseAlarms: share(c.answered),
    unanswerableFlagged: share(c.unanswerable),
    absentAnswered: flagged.filter((f, i) => f && c.answered[i] && c.absentWord[i]).length,
  };
}

function offTarget(f: ReturnType<typeof weakFigures>): number {
  return (
    (f.falseAlarms !== null && f.falseAlarms > 0.35 + 1e-9 ? 1 : 0) +
    (f.unanswerableFlagged !== null && f.unanswerableFlagged < 0.7 - 1e-9 ? 1 : 0)
  );
}

function autoFigures(b: AutoBot, v: Variant) {
  let asks = 0;
  let kept = 0;
  let haiku = 0;
  b.rows.forEach((r, i) => {
    const shift = term(v, b.rarity[i]!);
    const move = (p: number) => (p > 0 ? sigmoid(logit(p) + shift) : 0);
    const best = move(r.best);
    const fifth = move(r.fifth);
    const ask =
      r.mismatch ||
      autoAsksOnCoverage({
        weak: best < WEAK_BEST_SCORE,
        hitCount: r.best > 0 ? 5 : 0,
        bestRelevance: best,
        fifthRelevance: fifth,
        keyTermsInTopHit: r.keyTermsInTopHit,
        unmatchedShare: r.unmatchedShare,
      });
    if (ask) asks++;
    if (r.haikuRescued) {
      haiku++;
      if (ask) kept++;
    }
  });
  return { asksPer100: (100 * asks) / b.rows.length, kept, haiku };
}

function evaluate(v: Variant, on: readonly Collection[] = collections) {
  const weak = on.map((c) => weakFigures(c, v));
  return {
    off: weak.reduce((n, f) => n + offTarget(f), 0),
    absent: weak.reduce((n, f) => n + f.absentAnswered, 0),
    auto: autoBots.map((b) => autoFigures(b, v)),
  };
}

const plain = evaluate(NONE);
const INFINITE = Number.POSITIVE_INFINITY;
const STUDIED: Variant = { ...STUDIED_TERM, cap: INFINITE, raise: INFINITE };
/** auto keeps every bot's rescues and stays within 40 asks per 100 (or where it was). */
const admissible = (e: ReturnType<typeof evaluate>) =>
  e.auto.every(
    (a, i) => a.kept >= plain.auto[i]!.kept && a.asksPer100 <= Math.max(40, plain.auto[i]!.asksPer100),
  );

function grid(): Variant[] {
  const out: Variant[] = [];
  for (const cap of [1, 1.05, 1.1, 1.2, INFINITE]) {
    for (const raise of [0, 0.25, 0.5, 1, INFINITE]) {
      for (let weight = 0.5; weight <= 4.001; weight += 0.5) {
        for (let reference = 0.6; reference <= 1.2001; reference += 0.025)
          out.push({ weight, reference, cap, raise });
      }
    }
  }
  return out;
}

const GRID = grid();
const ADMISSIBLE = GRID.map((v) => admissible(evaluate(v)));

/** The fewest figures off target on `on` (ties: fewer answered searches with an absent word flagged). */
function choose(on: readonly Collection[], where: (v: Variant, k: number) => boolean): Variant | undefined {
  let best: { v: Variant; off: number; absent: number } | undefined;
  for (const [k, v] of GRID.entries()) {
    if (!where(v, k)) continue;
    const e = evaluate(v, on);
    if (!best || e.off < best.off || (e.off === best.off && e.absent < best.absent)) {
      best = { v, off: e.off, absent: e.absent };
    }
  }
  return best?.v;
}

const show = (v: Variant) =>
  `weight ${v.weight}, reference ${v.reference.toFixed(3)}, rarity cap ${v.cap}, raise at most ${v.raise}`;
const autoCells = (e: ReturnType<typeof evaluate>) =>
  e.auto
    .map((a, i) => `${autoBots[i]!.bot} ${a.asksPer100.toFixed(1)} asks, keeps ${a.kept}/${a.haiku}`)
    .join("; ");
const out: string[] = [
  "| variant | constants | figures off target | answered searches with an absent word flagged | auto (simulated) |",
  "|---|---|--:|--:|---|",
];
const row = (label: string, v: Variant | undefined) => {
  if (!v) return;
  const e = evaluate(v);
  out.push(`| ${label} | ${show(v)} | ${e.off} | ${e.absent} | ${autoCells(e)} |`);
};
row("plain line", NONE);
row("studied term", STUDIED);
for (const scale of [0.25, 0.5, 0.75])
  row(`studied × ${scale}`, { ...STUDIED, weight: STUDIED_TERM.weight * scale });
for (const cap of [1, 1.05, 1.1]) {
  row(`studied, rarity cap ${cap}`, { ...STUDIED, cap });
  row(
    `best, rarity cap ${cap}`,
    choose(collections, (v) => v.cap === cap),
  );
}
for (const raise of [0, 0.25, 0.5]) {
  row(`studied, raise at most ${raise}`, { ...STUDIED, raise });
  row(
    `best, raise at most ${raise}`,
    choose(collections, (v) => v.raise === raise),
  );
}
row(
  "best",
  choose(collections, () => true),
);
const bounded = choose(collections, (_v, k) => ADMISSIBLE[k]!);
row("best keeping auto", bounded);
out.push("", "Leave-one-collection-out, keeping auto (constants chosen on the others):", "");
out.push("| left out | constants | FA | UF | off target |", "|---|---|--:|--:|--:|");
let held = 0;
const pct = (x: number | null) => (x === null ? "–" : (x * 100).toFixed(1));
for (const c of collections) {
  const v = choose(
    collections.filter((d) => d !== c),
    (_v, k) => ADMISSIBLE[k]!,
  )!;
  const f = weakFigures(c, v);
  held += offTarget(f);
  out.push(
    `| ${c.name} | ${show(v)} | ${pct(f.falseAlarms)} | ${pct(f.unanswerableFlagged)} | ${offTarget(f) || ""} |`,
  );
}
out.push("", `keeping auto: figures off target left out ${held}`);
process.stdout.write(`${out.join("\n")}\n`);
