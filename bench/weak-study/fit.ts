/**
 * Fits the weak flag's per-search term on the per-question dump of bench/weak-study/dump.ts (not a
 * suite of `npm run bench`; the dump takes a few minutes, this a few seconds):
 *
 *   OUT=/tmp/weak.jsonl npx tsx bench/weak-study/dump.ts
 *   DUMP=/tmp/weak.jsonl npx tsx bench/weak-study/fit.ts
 *
 * Every visible collection counts once (lohelp-en of the documentation bots is lohelp's en-us and is
 * read once). A variant adds `weight · (reference − x)` to the log-odds of each search's bestScore
 * and is judged by the weak line the product keeps
 * (WEAK_BEST_SCORE): the number of figures off target — false alarms (answered searches flagged)
 * above 35 %, unanswerable questions flagged below 70 % — then by how far off. Its two constants are
 * chosen on a grid over all collections, and leave-one-collection-out: each collection's figures
 * with the constants chosen on the others. Variants: `line` (no term: the plain line, moved),
 * `rarity` (x = the query's rarity, rarity.ts `queryRarity`), `pseudo` (x = the
 * collection's own median best score, in log-odds, over pseudo-queries of half a section's salient
 * terms and half unrelated sections' — a per-collection statistic needing no judgments).
 */
import { readFileSync } from "node:fs";
import { rocAuc } from "../../src/evaluation/metrics.js";
import { WEAK_BEST_SCORE } from "../../src/weakness.js";
import { STUDIED_TERM } from "./rarity.js";

interface DumpedQuestion {
  answerable: boolean;
  answered: boolean;
  bestScore: number;
  rarity: number;
}
interface DumpedCollection {
  set: string;
  code: string;
  questions: DumpedQuestion[];
  pseudo: { kind: string; rel: number[] }[];
}
interface Collection {
  name: string;
  /** Per question: bestScore's log-odds, x, labels. */
  base: number[];
  rarity: number[];
  pseudo: number;
  answered: boolean[];
  unanswerable: boolean[];
  empty: boolean[];
}

const FALSE_ALARMS_AT_MOST = 0.35;
const UNANSWERABLE_AT_LEAST = 0.7;
const logit = (p: number) => {
  const q = Math.min(Math.max(p, 1e-3), 1 - 1e-3);
  return Math.log(q / (1 - q));
};
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : 0;
};

const rows = readFileSync(process.env.DUMP ?? "/tmp/weak.jsonl", "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as DumpedCollection)
  .filter((r) => !(r.set === "docbots" && r.code === "lohelp-en"));
const collections: Collection[] = rows.map((r) => ({
  name: `${r.set}/${r.code}`,
  base: r.questions.map((q) => logit(q.bestScore)),
  rarity: r.questions.map((q) => q.rarity),
  pseudo: median(r.pseudo.filter((p) => p.kind === "m").map((p) => logit(p.rel[0] ?? 0))),
  answered: r.questions.map((q) => q.answered),
  unanswerable: r.questions.map((q) => !q.answerable),
  empty: r.questions.map((q) => q.bestScore <= 0),
}));

type Variant = "line" | "rarity" | "pseudo";
interface Constants {
  weight: number;
  reference: number;
}
const line = logit(WEAK_BEST_SCORE);

function score(c: Collection, variant: Variant, k: Constants): number[] {
  return c.base.map((b, i) => {
    if (variant === "line") return b + k.reference;
    const x = variant === "rarity" ? c.rarity[i]! : c.pseudo;
    return b + k.weight * (k.reference - x);
  });
}

function figures(c: Collection, variant: Variant, k: Constants) {
  const s = score(c, variant, k);
  const flagged = s.map((v, i) => c.empty[i]! || v < line);
  const share = (of: boolean[]) => {
    const n = of.filter(Boolean).length;
    return n ? flagged.filter((f, i) => f && of[i]).length / n : null;
  };
  return { falseAlarms: share(c.answered), unanswerableFlagged: share(c.unanswerable) };
}

function offTarget(f: ReturnType<typeof figures>): { count: number; by: number } {
  let count = 0;
  let by = 0;
  if (f.falseAlarms !== null && f.falseAlarms > FALSE_ALARMS_AT_MOST + 1e-9) {
    count++;
    by += f.falseAlarms - FALSE_ALARMS_AT_MOST;
  }
  if (f.unanswerableFlagged !== null && f.unanswerableFlagged < UNANSWERABLE_AT_LEAST - 1e-9) {
    count++;
    by += UNANSWERABLE_AT_LEAST - f.unanswerableFlagged;
  }
  return { count, by };
}

function grid(variant: Variant): Constants[] {
  const out: Constants[] = [];
  if (variant === "line") {
    for (let r = -1.5; r <= 1.5001; r += 0.025) out.push({ weight: 0, reference: r });
    return out;
  }
  const references = variant === "rarity" ? [0.3, 1.2] : [-3, 1];
  for (let w = 0.25; w <= 4.001; w += 0.25) {
    for (let r = references[0]!; r <= references[1]! + 1e-9; r += 0.025)
      out.push({ weight: w, reference: r });
  }
  return out;
}

function chooseConstants(variant: Variant, on: readonly Collection[]): Constants {
  let best: { key: [number, number]; k: Constants } | undefined;
  for (const k of grid(variant)) {
    let count = 0;
    let by = 0;
    for (const c of on) {
      const o = offTarget(figures(c, variant, k));
      count += o.count;
      by += o.by;
    }
    if (!best || count < best.key[0] || (count === best.key[0] && by < best.key[1] - 1e-12)) {
      best = { key: [count, by], k };
    }
  }
  return best!.k;
}

const pct = (x: number | null) => (x === null ? "–" : (x * 100).toFixed(1));
const studied: Constants = STUDIED_TERM;
const out: string[] = [];
out.push(
  "| collection | AUC bestScore (answered vs unanswerable) | AUC with the rarity term | now: FA / UF |",
);
out.push("|---|--:|--:|---|");
for (const c of collections) {
  const pick = c.base.map((_b, i) => c.answered[i] || c.unanswerable[i]);
  const labels = c.answered.filter((_a, i) => pick[i]);
  const auc = (s: number[]) => {
    const v = rocAuc(
      s.filter((_x, i) => pick[i]),
      labels,
    );
    return Number.isNaN(v) ? "–" : v.toFixed(2);
  };
  const now = figures(c, "line", { weight: 0, reference: 0 });
  out.push(
    `| ${c.name} | ${auc(c.base)} | ${auc(score(c, "rarity", studied))} | ${pct(now.falseAlarms)} / ${pct(now.unanswerableFlagged)} |`,
  );
}
const now = collections.reduce(
  (n, c) => n + offTarget(figures(c, "line", { weight: 0, reference: 0 })).count,
  0,
);
out.push("", `now (the weak line, no term): figures off target ${now}`);
for (const variant of ["line", "rarity", "pseudo"] as const) {
  const all = chooseConstants(variant, collections);
  let fitted = 0;
  let heldOut = 0;
  out.push(
    "",
    `### ${variant}: fitted on all weight ${all.weight}, reference ${all.reference.toFixed(3)}`,
    "",
  );
  out.push("| left out | weight | reference | FA | UF | off target |", "|---|--:|--:|--:|--:|--:|");
  for (const c of collections) {
    fitted += offTarget(figures(c, variant, all)).count;
    const k = chooseConstants(
      variant,
      collections.filter((d) => d !== c),
    );
    const f = figures(c, variant, k);
    const o = offTarget(f).count;
    heldOut += o;
    out.push(
      `| ${c.name} | ${k.weight} | ${k.reference.toFixed(3)} | ${pct(f.falseAlarms)} | ${pct(f.unanswerableFlagged)} | ${o || ""} |`,
    );
  }
  out.push("", `${variant}: figures off target fitted on all ${fitted}, left out ${heldOut}`);
}
process.stdout.write(`${out.join("\n")}\n`);
