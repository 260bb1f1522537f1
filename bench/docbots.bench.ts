/**
 * The documentation-bot suite: every collection defaults are decided on (pydocs, lohelp-en,
 * nodejs-api, the handbook's questions, Cranfield, CISI, CACM), our default search and first pass
 * beside SQLite FTS5 and MiniSearch indexing the same extracted text, in one run. For our default search also the
 * weak flag (false alarms, misses caught, unanswerable flagged, AUC of bestScore for "an answer
 * in the top 5") and the median size of the full-mode text the model reads. pydocs is built with
 * ../shared/data/pydocs/build-bot.sh into a cache folder (BENCH_PYDOCS_BOT reuses one), nodejs-api
 * with bench/data/nodejs-api/build-bot.sh (BENCH_NODEJS_API_BOT reuses one); a
 * collection whose data is absent is skipped and named. For the documentation bots, per question:
 * which FTS5 finds in the top 5 and we do not, and the other way round, with both ranks.
 */
import { weakFlagFigures } from "../src/evaluation/calibration-fit.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { renderSearchResponse } from "../src/knowledge-tool/render.js";
import { DOCS_COLLECTIONS, type JudgedCollection, loadCollections } from "./docbots/collections.js";
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

/** Rank (1..10) of the first answering document, 0 when none is in the top 10. */
const rankOf = (ids: readonly string[], relevant: ReadonlySet<string>) =>
  ids.slice(0, 10).findIndex((id) => relevant.has(id)) + 1;

function rankFigures(c: JudgedCollection, rankings: string[][]) {
  let h5 = 0;
  let h10 = 0;
  let mrr = 0;
  let n = 0;
  c.questions.forEach((q, i) => {
    if (!q.answerable) return;
    n++;
    const rank = rankOf(rankings[i]!, q.relevant);
    if (rank > 0 && rank <= 5) h5++;
    if (rank > 0) {
      h10++;
      mrr += 1 / rank;
    }
  });
  return { hit5: h5 / n, hit10: h10 / n, mrr10: mrr / n };
}

const inTop5 = (rank: number) => rank > 0 && rank <= 5;

/** Per answerable question of a documentation bot: our default's rank beside FTS5's (item 3 of issue 21). */
interface QuestionComparison {
  id: string;
  text: string;
  vocab?: string;
  ours: number;
  firstPass: number;
  fts5: number;
}

function ourRows(c: JudgedCollection, comparison: Map<string, QuestionComparison>): Row[] {
  const rows: Row[] = [];
  for (const rerank of [true, false]) {
    const responses = c.questions.map((q) =>
      c.engine.searchSync(rerank ? { query: q.text } : { query: q.text, rerank }),
    );
    c.questions.forEach((q, i) => {
      if (!q.answerable) return;
      const entry = comparison.get(q.id) ?? {
        id: q.id,
        text: q.text,
        ...(q.vocab ? { vocab: q.vocab } : {}),
        ours: 0,
        firstPass: 0,
        fts5: 0,
      };
      const rank = rankOf(
        responses[i]!.results.map((h) => h.id),
        q.relevant,
      );
      if (rerank) entry.ours = rank;
      else entry.firstPass = rank;
      comparison.set(q.id, entry);
    });
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

function peerRows(c: JudgedCollection, comparison: Map<string, QuestionComparison>): Row[] {
  return [new Fts5Peer(), new MiniSearchPeer()].map((peer) => {
    peer.build(c.docs);
    const rankings = c.questions.map((q) => peer.search(q.text, 10));
    peer.close();
    if (peer instanceof Fts5Peer) {
      c.questions.forEach((q, i) => {
        const entry = comparison.get(q.id);
        if (entry) entry.fts5 = rankOf(rankings[i]!, q.relevant);
      });
    }
    return { collection: c.name, system: peer.label, ...rankFigures(c, rankings) };
  });
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const { collections, skipped } = await loadCollections();
  const comparisons = new Map<string, QuestionComparison[]>();
  const rows = collections.flatMap((c) => {
    const comparison = new Map<string, QuestionComparison>();
    const out = [...ourRows(c, comparison), ...peerRows(c, comparison)];
    if (DOCS_COLLECTIONS.includes(c.name)) comparisons.set(c.name, [...comparison.values()]);
    return out;
  });
  const lines = [
    "| collection | system | hit@5 | hit@10 | MRR@10 | false alarms | misses caught | unanswerable flagged | AUC | median chars |",
    "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: |",
    ...rows.map(
      (r) =>
        `| ${r.collection} | ${r.system} | ${pct(r.hit5)} | ${pct(r.hit10)} | ${r.mrr10.toFixed(3)} | ${pct(r.falseAlarms)} | ${pct(r.missesCaught)} | ${pct(r.unanswerableFlagged)} | ${r.auc === undefined || r.auc === null ? "–" : r.auc.toFixed(3)} | ${r.medianChars?.toLocaleString("en-US") ?? "–"} |`,
    ),
  ];
  for (const [collection, questions] of comparisons)
    lines.push("", ...comparisonTable(collection, questions));
  if (skipped.length) lines.push("", `Skipped: ${skipped.join("; ")}.`);
  return {
    title: "Documentation bots and classic collections: our search beside FTS5 and MiniSearch",
    figures: { rows, skipped, perQuestion: Object.fromEntries(comparisons) },
    markdown: lines.join("\n"),
  };
}

/** The answerable questions one of FTS5 and our default finds in the top 5 and the other does not. */
function comparisonTable(collection: string, questions: readonly QuestionComparison[]): string[] {
  const rank = (r: number) => (r === 0 ? "–" : String(r));
  const only = (ours: boolean) =>
    questions.filter((q) => inTop5(q.ours) === ours && inTop5(q.fts5) === !ours);
  const section = (title: string, list: readonly QuestionComparison[]) => [
    "",
    `${title}: ${list.length}`,
    "",
    "| question | words | ours (first pass) | FTS5 |",
    "| --- | --- | --: | --: |",
    ...list.map(
      (q) =>
        `| ${q.id} ${q.text.replaceAll("|", "\\|")} | ${q.vocab ?? "–"} | ${rank(q.ours)} (${rank(q.firstPass)}) | ${rank(q.fts5)} |`,
    ),
  ];
  return [
    `#### ${collection}: per question, our default beside SQLite FTS5 (rank of the first answering page in the top 10, – none)`,
    ...section("In FTS5's top 5, not in ours", only(false)),
    ...section("In our top 5, not in FTS5's", only(true)),
  ];
}
