// The summary of `eval <bot> --questions`, one row per figure and one cell per compared setting:
// the terminal table (src/cli/eval.ts) and the HTML report (eval-report-html.ts) print these same
// rows, so the two never disagree on a label or a rounding.
import type { BotEvalFigures, Share } from "./bot-metrics.js";

/** A share as a percentage with one decimal, "–" when there is nothing to divide. */
export const percent = (x: number | null): string => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);

export const ofShare = (s: Share) => `${percent(s.rate)} (${s.count}/${s.of})`;
export const num = (x: number | null) => (x === null ? "–" : x.toLocaleString("en-US"));

export interface SummaryRow {
  label: string;
  cell: (figures: BotEvalFigures) => string;
}

/** The figures rows, then one row per subset the first setting has (`kind=…`, `style=…`, …). */
export function summaryRows(first: BotEvalFigures): SummaryRow[] {
  const rows: SummaryRow[] = [
    {
      label: "search hit@1 / @5 / @10",
      cell: (r) => `${percent(r.search.hit1)} / ${percent(r.search.hit5)} / ${percent(r.search.hit10)}`,
    },
    { label: "search MRR@10", cell: (r) => num(r.search.mrr10) },
    {
      label: "final text hit@1 / @5 / @10",
      cell: (r) => `${percent(r.final.hit1)} / ${percent(r.final.hit5)} / ${percent(r.final.hit10)}`,
    },
    { label: "final text MRR@10", cell: (r) => num(r.final.mrr10) },
    { label: "answer anywhere in final text", cell: (r) => percent(r.final.anywhere) },
    { label: "false alarms (flagged, answer in top 5)", cell: (r) => ofShare(r.weak.falseAlarms) },
    { label: "misses caught (flagged, no answer in top 5)", cell: (r) => ofShare(r.weak.missesCaught) },
    { label: "unanswerable flagged", cell: (r) => ofShare(r.weak.unanswerableFlagged) },
    { label: "AUC of bestScore for answer in top 5", cell: (r) => num(r.weak.auc) },
    {
      label: "misses rescued (flagged misses)",
      cell: (r) => `${r.rescue.rescued}/${r.rescue.misses} (${r.rescue.flagged} flagged)`,
    },
    {
      label: "told not covered: answer in top 5 / unanswerable",
      cell: (r) => `${ofShare(r.toldNotCovered.answerInTop5)} / ${ofShare(r.toldNotCovered.unanswerable)}`,
    },
    {
      label: "chars added on unanswerable, median / p90",
      cell: (r) => `${num(r.charsAddedOnUnanswerable.median)} / ${num(r.charsAddedOnUnanswerable.p90)}`,
    },
    {
      label: "final text chars, median / p90",
      cell: (r) => `${num(r.finalChars.median)} / ${num(r.finalChars.p90)}`,
    },
    { label: "model calls per 100 searches", cell: (r) => num(r.modelCallsPer100) },
    { label: "model grader calls failed", cell: (r) => `${r.grader.failed} of ${r.grader.calls}` },
    { label: "latency ms, p50 / p95", cell: (r) => `${num(r.latencyMs.p50)} / ${num(r.latencyMs.p95)}` },
  ];
  for (const subset of Object.keys(first.subsets)) {
    rows.push({
      label: `${subset}: search / final hit@5, flagged`,
      cell: (r) => {
        const s = r.subsets[subset];
        return s ? `${percent(s.searchHit5)} / ${percent(s.finalHit5)}, ${percent(s.flagged.rate)}` : "–";
      },
    });
  }
  return rows;
}

/** A setting's column heading: its name, marked when its figures are not what it was asked to do. */
export function settingHeading(s: { setting: string; reliable: boolean }): string {
  return s.reliable ? s.setting : `${s.setting} (UNRELIABLE)`;
}
