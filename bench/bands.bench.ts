/**
 * Band precision on every judged collection: over every top-10 hit of the default search (as a
 * bot runs it, the shipped calibration), the share judged relevant per band. A band a bot owner
 * can trust is ordered high > medium > low everywhere (docs/design.md §3). Collections: those of
 * the documentation-bot suite (pydocs, lohelp-en, handbook, Cranfield, CISI, CACM;
 * bench/docbots/collections.ts).
 */

import type { Band } from "../src/types.js";
import { HIGH_BAND_MIN, MEDIUM_BAND_MIN } from "../src/weakness.js";
import { type JudgedCollection, loadCollections } from "./docbots/collections.js";

export const name = "bands";
export const timeoutMs = 20 * 60_000;

const BANDS: readonly Band[] = ["high", "medium", "low"];
const TOP = 10;

export interface BandRow {
  collection: string;
  questions: number;
  bands: Record<Band, { hits: number; relevant: number; precision: number | null }>;
  /** high > medium > low, each band that holds hits counted (an empty band orders nothing). */
  ordered: boolean;
}

export function bandRow(c: JudgedCollection): BandRow {
  const counts = Object.fromEntries(BANDS.map((b) => [b, { hits: 0, relevant: 0 }])) as Record<
    Band,
    { hits: number; relevant: number }
  >;
  for (const q of c.questions) {
    for (const hit of c.engine.searchSync({ query: q.text }).results.slice(0, TOP)) {
      counts[hit.band].hits++;
      if (q.relevant.has(hit.id)) counts[hit.band].relevant++;
    }
  }
  const bands = Object.fromEntries(
    BANDS.map((b) => {
      const { hits, relevant } = counts[b];
      return [
        b,
        { hits, relevant, precision: hits ? Math.round((relevant / hits) * 10_000) / 10_000 : null },
      ];
    }),
  ) as BandRow["bands"];
  const used = BANDS.map((b) => bands[b].precision).filter((p): p is number => p !== null);
  return {
    collection: c.name,
    questions: c.questions.length,
    bands,
    ordered: used.every((p, i) => i === 0 || used[i - 1]! > p),
  };
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const { collections, skipped } = await loadCollections();
  const rows = collections.map(bandRow);
  const cell = (b: BandRow["bands"][Band]) =>
    b.precision === null ? "– (0 hits)" : `${(b.precision * 100).toFixed(1)} % (${b.relevant}/${b.hits})`;
  const lines = [
    `Bands: high ≥ ${HIGH_BAND_MIN}, medium ≥ ${MEDIUM_BAND_MIN}, low below (src/weakness.ts). Precision = judged relevant / hits, over every top-${TOP} hit of the default search.`,
    "",
    "| collection | questions | high | medium | low | ordered high > medium > low |",
    "| --- | --: | --: | --: | --: | --- |",
    ...rows.map(
      (r) =>
        `| ${r.collection} | ${r.questions} | ${cell(r.bands.high)} | ${cell(r.bands.medium)} | ${cell(r.bands.low)} | ${r.ordered ? "yes" : "**no**"} |`,
    ),
  ];
  if (skipped.length) lines.push("", `Skipped: ${skipped.join("; ")}.`);
  return {
    title: "Band precision on every judged collection",
    figures: { thresholds: { high: HIGH_BAND_MIN, medium: MEDIUM_BAND_MIN }, rows, skipped },
    markdown: lines.join("\n"),
  };
}
