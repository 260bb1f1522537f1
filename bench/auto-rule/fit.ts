// Fits auto's ask rule (corrective/auto-ask-rule.ts) on the feature tables bench/auto-rule/collect.ts
// wrote, and prints what it keeps: `node --import tsx bench/auto-rule/fit.ts <folder>`.
//
// The rule: ask when the query is in another language than the documents, or the search is weak
// and the words no document holds carry less than `absence` of the query, or best − fifth
// relevance < `perKey` × key-term share − `offset`. The fit: over a grid of the three
// parameters, the rule keeping the largest mean share of haiku's rescues over the bots with
// replies while asking on at most BUDGET of every bot's searches (ties: fewer asks). A search
// auto does not ask about keeps the signal's own rescue. Leave one collection out: fitted on the
// other bots, reported on the one left out. The lohelp questions in other languages over the
// English help are reported, never fitted on (the language rule asks about nearly all of them).
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type AskOutcome, askOutcome, type FeatureRow } from "./features.js";

/** Two below the 40 % budget, for what one replay cannot show. */
const BUDGET = 0.38;
const FITTED = ["pydocs", "nodejs-api", "handbook-en", "lohelp-en"];
const ABSENCE = [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 1.01];
const PER_KEY = range(0, 1, 0.05);
const OFFSET = range(-0.2, 0.4, 0.01);

interface Rule {
  absence: number;
  perKey: number;
  offset: number;
}

const folder = process.argv[2];
if (!folder) throw new Error("usage: fit.ts <folder>");
const tables = new Map<string, FeatureRow[]>();
for (const file of (await readdir(folder)).filter((f) => f.endsWith(".jsonl")).sort()) {
  const text = await readFile(join(folder, file), "utf8");
  tables.set(
    file.slice(0, -".jsonl".length),
    text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as FeatureRow),
  );
}

const asks = (rule: Rule, r: FeatureRow): boolean =>
  r.mismatch ||
  (r.weak && r.unmatchedShare < rule.absence) ||
  r.best - r.fifth < rule.perKey * r.keyTermsInTopHit - rule.offset;

/** The rule auto used before the coverage rule (signal-grader.ts's band rule). */
const bandRule = (r: FeatureRow): boolean =>
  r.mismatch || (r.weak && r.unmatchedShare === 0) || (!r.weak && r.best < 0.43 && r.best - r.second < 0.06);

function fitRule(bots: readonly string[]): Rule {
  let best: { rule: Rule; share: number; asks: number } | undefined;
  for (const absence of ABSENCE) {
    for (const perKey of PER_KEY) {
      for (const offset of OFFSET) {
        const rule = { absence, perKey, offset };
        const results = bots.map((b) => askOutcome((r) => asks(rule, r), tables.get(b)!));
        if (results.some((o) => o.per100 > 100 * BUDGET)) continue;
        const withReplies = results.filter((o) => o.rescues > 0);
        const share = withReplies.reduce((s, o) => s + o.kept / o.rescues, 0) / (withReplies.length || 1);
        const total = results.reduce((s, o) => s + o.per100, 0);
        if (
          !best ||
          share > best.share + 1e-9 ||
          (Math.abs(share - best.share) <= 1e-9 && total < best.asks)
        ) {
          best = { rule, share, asks: total };
        }
      }
    }
  }
  if (!best) throw new Error("no rule holds the budget");
  return best.rule;
}

const show = (o: AskOutcome) =>
  `${o.per100.toFixed(1)} / 100, keeps ${o.rescues ? `${o.kept} of ${o.rescues}` : "–"}`;
const describeRule = (r: Rule) =>
  `absence share < ${r.absence}, best − fifth < ${r.perKey.toFixed(2)} × key − ${r.offset.toFixed(2)}`;

const fitted = FITTED.filter((b) => tables.has(b));
const all = fitRule(fitted);
console.log(
  `fitted on ${fitted.join(", ")} (≤ ${BUDGET * 100} asks per 100 on each): ${describeRule(all)}\n`,
);
console.log("| questions | band rule | fitted rule (all bots) | left out: rule fitted on the others |");
console.log("|---|---|---|---|");
for (const [name, rows] of tables) {
  const others = fitted.filter((b) => b !== name);
  const left = fitted.includes(name) ? fitRule(others) : all;
  console.log(
    `| ${name} | ${show(askOutcome(bandRule, rows))} | ${show(askOutcome((r) => asks(all, r), rows))} | ` +
      `${fitted.includes(name) ? `${show(askOutcome((r) => asks(left, r), rows))} (${describeRule(left)})` : "–"} |`,
  );
}

function range(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let i = 0; from + i * step <= to + 1e-9; i++) out.push(Math.round((from + i * step) * 100) / 100);
  return out;
}
