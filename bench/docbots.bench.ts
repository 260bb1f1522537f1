/**
 * The documentation-bot suite: every collection defaults are decided on (pydocs, the handbook's
 * questions, Cranfield, CISI, CACM), our default search and first pass beside SQLite FTS5 and
 * MiniSearch indexing the same extracted text, in one run. For our default search also the
 * weak flag (false alarms, misses caught, unanswerable flagged, AUC of bestScore for "an answer
 * in the top 5") and the median size of the full-mode text the model reads. pydocs is built with
 * ../shared/data/pydocs/build-bot.sh into a cache folder (BENCH_PYDOCS_BOT reuses one); a
 * collection whose data is absent is skipped and named.
 */
import { weakFlagFigures } from "../src/evaluation/calibration-fit.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { renderSearchResponse } from "../src/protocol/render.js";
import { type JudgedCollection, loadCollections } from "./docbots/collections.js";
import { Fts5Peer } from "./peers/fts5.js";
import { MiniSearchPeer } from "./peers/minisearch.js";

export const name = "docbots";
export const timeoutMs = 20 * 60_000;

interface Row {
  collection: string;
  system: string;
  hit5: number;
  hit10: number;
  mrr10: number;
  falseAlarms?: number | null;
  missesCaught?: number | null;
  unanswerableFlagged?: number | null;
  auc?: number | null;
  medianChars?: number;
}

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "–" : `${(x * 100).toFixed(1)} %`;

function rankFigures(c: JudgedCollection, rankings: string[][]) {
  let h5 = 0;
  let h10 = 0;
  let mrr = 0;
  let n = 0;
  c.questions.forEach((q, i) => {
    if (!q.answerable) return;
    n++;
    const rank = rankings[i]!.slice(0, 10).findIndex((id) => q.relevant.has(id)) + 1;
    if (rank > 0 && rank <= 5) h5++;
    if (rank > 0) {
      h10++;
      mrr += 1 / rank;
    }
  });
  return { hit5: h5 / n, hit10: h10 / n, mrr10: mrr / n };
}

function ourRows(c: JudgedCollection): Row[] {
  const rows: Row[] = [];
  for (const rerank of [true, false]) {
    const responses = c.questions.map((q) =>
      c.engine.searchSync(rerank ? { query: q.text } : { query: q.text, rerank }),
    );
    const row: Row = {
      collection: c.name,
      system: rerank ? "second-look default" : "second-look first pass",
      ...rankFigures(
        c,
        responses.map((r) => r.results.map((h) => h.id)),
      ),
    };
    if (rerank) {
      // The weak flag's figures by the same rule `second-look calibrate` reports them.
      const figures = weakFlagFigures(
        c.questions.map((q, i) => {
          const r = responses[i]!;
          const answered = q.answerable && r.results.slice(0, 5).some((h) => q.relevant.has(h.id));
          return { bestScore: r.bestScore, answerable: q.answerable, answered };
        }),
      );
      row.falseAlarms = figures.falseAlarms;
      row.missesCaught = figures.missesCaught;
      row.unanswerableFlagged = figures.unanswerableFlagged;
      row.auc = figures.auc;
      row.medianChars = percentiles(
        responses.map((r) => renderSearchResponse(r, { brief: false }).length),
        [50],
      )[0]!;
    }
    rows.push(row);
  }
  return rows;
}

function peerRows(c: JudgedCollection): Row[] {
  return [new Fts5Peer(), new MiniSearchPeer()].map((peer) => {
    peer.build(c.docs);
    const rankings = c.questions.map((q) => peer.search(q.text, 10));
    peer.close();
    return { collection: c.name, system: peer.label, ...rankFigures(c, rankings) };
  });
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const { collections, skipped } = await loadCollections();
  const rows = collections.flatMap((c) => [...ourRows(c), ...peerRows(c)]);
  const lines = [
    "| collection | system | hit@5 | hit@10 | MRR@10 | false alarms | misses caught | unanswerable flagged | AUC | median chars |",
    "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: |",
    ...rows.map(
      (r) =>
        `| ${r.collection} | ${r.system} | ${pct(r.hit5)} | ${pct(r.hit10)} | ${r.mrr10.toFixed(3)} | ${pct(r.falseAlarms)} | ${pct(r.missesCaught)} | ${pct(r.unanswerableFlagged)} | ${r.auc === undefined || r.auc === null ? "–" : r.auc.toFixed(3)} | ${r.medianChars?.toLocaleString("en-US") ?? "–"} |`,
    ),
  ];
  if (skipped.length) lines.push("", `Skipped: ${skipped.join("; ")}.`);
  return {
    title: "Documentation bots and classic collections: our search beside FTS5 and MiniSearch",
    figures: { rows, skipped },
    markdown: lines.join("\n"),
  };
}
