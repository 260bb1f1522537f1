// How far auto's ask rule can go (corrective/auto-ask-rule.ts), on the feature tables
// bench/auto-rule/collect.ts wrote: `node --import tsx bench/auto-rule/study.ts <folder>`.
//
// 1. Candidate features, leave one collection out. The shipped family (ask when the query is in
//    another language, or weak with its missing words under `absence` of the query, or
//    G < perKey × F − offset) with G one of best − fifth, best − second, best, and F the key-term
//    share the product reads or one of bench/auto-rule/candidates.ts's features; each fitted as
//    fit.ts fits the shipped rule (largest mean share of haiku's rescues kept, at most BUDGET asks
//    on every fitted bot and on lohelp-en, ties to fewer asks) on all bots but one and scored on
//    that one. The shipped family is also fitted with ties to more asks (the budget spent).
// 2. What no threshold can do: per bot, the fewest asks per 100 searches any rule needs to keep
//    90 % of haiku's rescues when it asks more the more doubtful each feature reads (lower best,
//    lead, spread and unmatched share; higher key-term share; weak before not weak), fitted on
//    that bot alone. Asking about a rescue such a rule leaves means asking about every search
//    that reads at least as doubtful on every feature, so the bound counts those searches.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fitLogistic, predict } from "../../src/evaluation/logistic.js";
import { type AskOutcome, askOutcome, type FeatureRow } from "./features.js";

const BUDGET = 0.38;
const TARGET = 0.9;
const FITTED = ["pydocs", "nodejs-api", "handbook-en"];
const COST_ONLY = ["lohelp-en"];
const ABSENCE = [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 1.01];
const PER_KEY = range(0, 1, 0.05);
const OFFSET = range(-0.2, 0.4, 0.01);

type Read = (r: FeatureRow) => number;
const c = (r: FeatureRow) => {
  if (!r.candidates)
    throw new Error(`${r.bot} ${r.id}: no candidate features (collect.ts on the embedded engine)`);
  return r.candidates;
};
const GAPS: Record<string, Read> = {
  "best − fifth": (r) => r.best - r.fifth,
  "best − second": (r) => r.best - r.second,
  best: (r) => r.best,
};
const SCALES: Record<string, Read> = {
  "key terms in the top hit (shipped)": (r) => r.keyTermsInTopHit,
  "key terms in its best section": (r) => c(r).keyTermsInTopSection,
  "key terms in hits 1–5": (r) => c(r).keyTermsInTop5,
  "query terms in the top hit": (r) => c(r).queryTermsInTopHit,
  "hits 2–5 holding every key term / 4": (r) => c(r).fullKeyHitsBelowTop / 4,
  "key-term rarity": (r) => c(r).keyTermRarity,
  "1 − key-term rarity": (r) => 1 - c(r).keyTermRarity,
  "1 (none)": () => 1,
};

const folder = process.argv[2];
if (!folder) throw new Error("usage: study.ts <folder>");
const tables = new Map<string, FeatureRow[]>();
for (const name of [...FITTED, ...COST_ONLY]) {
  const text = await readFile(join(folder, `${name}.jsonl`), "utf8").catch(() => undefined);
  if (text)
    tables.set(
      name,
      text
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as FeatureRow),
    );
}
const fitted = FITTED.filter((b) => tables.has(b));
const cost = COST_ONLY.filter((b) => tables.has(b));
if (!fitted.length) throw new Error(`no feature tables in ${folder} (${(await readdir(folder)).join(", ")})`);

interface Rule {
  absence: number;
  perKey: number;
  offset: number;
}

const family = (gap: Read, scale: Read) => (rule: Rule) => (r: FeatureRow) =>
  r.mismatch || (r.weak && r.unmatchedShare < rule.absence) || gap(r) < rule.perKey * scale(r) - rule.offset;

function fitRule(
  asks: (rule: Rule) => (r: FeatureRow) => boolean,
  bots: readonly string[],
  ties: "fewer" | "more",
): Rule {
  let best: { rule: Rule; share: number; asks: number } | undefined;
  for (const absence of ABSENCE) {
    for (const perKey of PER_KEY) {
      for (const offset of OFFSET) {
        const rule = { absence, perKey, offset };
        const decide = asks(rule);
        const results = [...bots, ...cost].map((b) => askOutcome(decide, tables.get(b)!));
        if (results.some((o) => o.per100 > 100 * BUDGET + 1e-9)) continue;
        const withReplies = results.filter((o) => o.rescues > 0);
        const share = withReplies.reduce((s, o) => s + o.kept / o.rescues, 0) / (withReplies.length || 1);
        const total = results.reduce((s, o) => s + o.per100, 0);
        const tie = best !== undefined && Math.abs(share - best.share) <= 1e-9;
        const better = best !== undefined && (ties === "fewer" ? total < best.asks : total > best.asks);
        if (!best || share > best.share + 1e-9 || (tie && better)) {
          best = { rule, share, asks: total };
        }
      }
    }
  }
  if (!best) throw new Error("no rule holds the budget");
  return best.rule;
}

const show = (o: AskOutcome) => `${o.kept}/${o.rescues} at ${o.per100.toFixed(1)}`;

console.log(
  `## Left out one collection at a time: haiku's rescues kept / asks per 100 searches (fitted at ≤ ${BUDGET * 100} on the others and ${cost.join(", ") || "–"})\n`,
);
console.log(`| G | F | ties | ${fitted.join(" | ")} | kept in all |`);
console.log(`|---|---|---|${fitted.map(() => "---|").join("")}---|`);
for (const [gapName, gap] of Object.entries(GAPS)) {
  for (const [scaleName, scale] of Object.entries(SCALES)) {
    const shipped = gapName === "best − fifth" && scaleName.endsWith("(shipped)");
    for (const ties of shipped ? (["fewer", "more"] as const) : (["fewer"] as const)) {
      const asks = family(gap, scale);
      const left = fitted.map((b) =>
        askOutcome(
          asks(
            fitRule(
              asks,
              fitted.filter((o) => o !== b),
              ties,
            ),
          ),
          tables.get(b)!,
        ),
      );
      console.log(
        `| ${gapName} | ${scaleName} | ${ties} | ${left.map(show).join(" | ")} | ${left.reduce((s, o) => s + o.kept, 0)} |`,
      );
    }
  }
}

// A score over every feature at once: an L2 logistic regression on "haiku rescues it and the
// signal does not" (each bot weighing the same, its rescues half of it), standardised on the
// bots it is fitted on, asked at the lowest score that holds the budget on each of them.
const EVERY: Read[] = [
  (r) => (r.weak ? 1 : 0),
  (r) => r.best,
  (r) => r.best - r.second,
  (r) => r.best - r.fifth,
  (r) => r.keyTermsInTopHit,
  (r) => r.unmatchedShare,
  (r) => (r.weak ? r.unmatchedShare : 0),
  (r) => c(r).keyTermsInTopSection,
  (r) => c(r).keyTermsInTop5,
  (r) => c(r).fullKeyHitsBelowTop / 4,
  (r) => c(r).queryTermsInTopHit,
  (r) => c(r).keyTermRarity,
  (r) => Math.log(Math.max(1, c(r).terms)),
];
const target = (r: FeatureRow) => (r.haikuRescued && !r.signalRescued ? 1 : 0);

function logisticAsks(bots: readonly string[], l2: number): (r: FeatureRow) => boolean {
  const rows = bots.flatMap((b) => tables.get(b)!);
  const raw = rows.map((r) => EVERY.map((f) => f(r)));
  const mean = EVERY.map((_, j) => raw.reduce((s, x) => s + x[j]!, 0) / raw.length);
  const sd = EVERY.map(
    (_, j) => Math.sqrt(raw.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / raw.length) || 1,
  );
  const z = (r: FeatureRow) => EVERY.map((f, j) => (f(r) - mean[j]!) / sd[j]!);
  const weights = bots.flatMap((b) => {
    const own = tables.get(b)!;
    const positives = own.filter((r) => target(r)).length;
    return own.map((r) => (positives ? (target(r) ? 0.5 / positives : 0.5 / (own.length - positives)) : 0));
  });
  const model = fitLogistic(rows.map(z), rows.map(target), { l2, sampleWeights: weights, iterations: 100 });
  const score = (r: FeatureRow) => predict(model, z(r));
  const budgeted = [...bots, ...cost];
  const scores = [...new Set(budgeted.flatMap((b) => tables.get(b)!.map(score)))].sort((a, b) => a - b);
  const at = (line: number) => (r: FeatureRow) => r.mismatch || score(r) >= line;
  const line =
    scores.find((s) =>
      budgeted.every((b) => askOutcome(at(s), tables.get(b)!).per100 <= 100 * BUDGET + 1e-9),
    ) ?? Number.POSITIVE_INFINITY;
  return at(line);
}

for (const l2 of [1e-3, 1e-2, 1e-1]) {
  const left = fitted.map((b) =>
    askOutcome(
      logisticAsks(
        fitted.filter((o) => o !== b),
        l2,
      ),
      tables.get(b)!,
    ),
  );
  console.log(
    `| logistic score over ${EVERY.length} features (L2 ${l2}) | – | – | ${left.map(show).join(" | ")} | ${left.reduce((s, o) => s + o.kept, 0)} |`,
  );
}

// Each feature oriented so that lower reads more doubtful.
const MONOTONE: Record<string, Read> = {
  best: (r) => r.best,
  "best − second": (r) => r.best - r.second,
  "best − fifth": (r) => r.best - r.fifth,
  "key-term share": (r) => -r.keyTermsInTopHit,
  "unmatched share": (r) => r.unmatchedShare,
  weak: (r) => (r.weak ? 0 : 1),
  "key terms in best section": (r) => -c(r).keyTermsInTopSection,
  "hits 2–5 holding every key term": (r) => -c(r).fullKeyHitsBelowTop,
};
const SETS: [string, string[]][] = [
  ["relevance alone (best, best − second, best − fifth)", ["best", "best − second", "best − fifth"]],
  [
    "what the product reads (+ key-term share, unmatched share, weak)",
    ["best", "best − second", "best − fifth", "key-term share", "unmatched share", "weak"],
  ],
  [
    "+ two candidates (key terms in best section, hits 2–5 holding every key term)",
    [
      "best",
      "best − second",
      "best − fifth",
      "key-term share",
      "unmatched share",
      "weak",
      "key terms in best section",
      "hits 2–5 holding every key term",
    ],
  ],
];

/** Fewest asks per 100 for a rule monotone in `reads` keeping TARGET of the rescues, and the rescues it leaves. */
function monotoneBound(
  rows: readonly FeatureRow[],
  reads: readonly Read[],
): { per100: number; leaves: string[] } {
  const x = rows.map((r) => reads.map((f) => f(r)));
  const rescues = rows.filter((r) => r.haikuRescued).length;
  const free = rows.filter((r) => r.haikuRescued && (r.signalRescued || r.mismatch)).length;
  const open = rows.flatMap((r, i) => (r.haikuRescued && !r.signalRescued && !r.mismatch ? [i] : []));
  const needed = Math.max(0, Math.ceil(TARGET * rescues - 1e-9) - free);
  let best: { per100: number; leaves: string[] } | undefined;
  for (const chosen of combinations(open, needed)) {
    const asked = rows.map(
      (r, i) => r.mismatch || chosen.some((j) => x[i]!.every((v, f) => v <= x[j]![f]! + 1e-12)),
    );
    const per100 = (100 * asked.filter(Boolean).length) / rows.length;
    if (!best || per100 < best.per100) {
      best = { per100, leaves: open.filter((i) => !chosen.includes(i)).map((i) => rows[i]!.id) };
    }
  }
  return best ?? { per100: 0, leaves: [] };
}

console.log(
  `\n## Fewest asks per 100 searches to keep ${TARGET * 100} % of haiku's rescues, any rule monotone in the features (fitted on the bot itself)\n`,
);
console.log(`| features | ${fitted.join(" | ")} |`);
console.log(`|---|${fitted.map(() => "---|").join("")}`);
for (const [label, names] of SETS) {
  const reads = names.map((n) => MONOTONE[n]!);
  const cells = fitted.map((b) => {
    const r = monotoneBound(tables.get(b)!, reads);
    return `${r.per100.toFixed(1)}${r.leaves.length ? ` (leaving ${r.leaves.join(", ")})` : ""}`;
  });
  console.log(`| ${label} | ${cells.join(" | ")} |`);
}

function* combinations<T>(items: readonly T[], k: number, from = 0): Generator<T[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= items.length - k; i++) {
    for (const rest of combinations(items, k - 1, i + 1)) yield [items[i]!, ...rest];
  }
}

function range(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let i = 0; from + i * step <= to + 1e-9; i++) out.push(Math.round((from + i * step) * 100) / 100);
  return out;
}
