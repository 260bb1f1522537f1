// `eval <bot> --questions --report report.html`: the evaluation as one self-contained page a bot
// owner can open anywhere. No script, no font, no image, no stylesheet from elsewhere: the charts
// are inline SVG drawn here, and a Content-Security-Policy of `default-src 'none'` keeps the
// page from reaching the network even if a question's text tried (every text is escaped too).
import type { QuestionOutcome } from "./bot-metrics.js";
import { percent, settingHeading, summaryRows } from "./bot-report-rows.js";
import type { BotEvalReport, SettingReport } from "./evaluate-bot.js";
import { matchesJudgedPath } from "./judged-questions.js";
import { rocAuc } from "./metrics.js";

/** Ranks drawn on the hit@k chart (a search shows 10 hits by default). */
const HIT_K_MAX = 10;
/** Bins of the reliability diagram over relevance 0..1. */
const RELIABILITY_BINS = 10;
/** Hits listed per question in the table (the rest are counted). */
const PAGES_LISTED = 10;
/** A colour per compared setting (colour-blind safe, Okabe–Ito). */
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];
const SEARCH_COLOUR = "#6A3D9A";

/** The page for a report; `generatedAt` is printed as given (an ISO time). */
export function evalReportHtml(report: BotEvalReport, generatedAt: string): string {
  const first = report.settings[0];
  const title = `${report.bot}: evaluation on ${report.questionsFile}`;
  const body = first
    ? [
        header(report, first, generatedAt),
        problems(report),
        summaryTable(report),
        `<section class="charts">${rocChart(first)}${reliabilityChart(first)}${hitAtKChart(report)}</section>`,
        questionTable(report),
      ].join("\n")
    : "<p>No setting was evaluated.</p>";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f3f3f3}td.num{text-align:right;white-space:nowrap}
.unreliable{color:#b00020;font-weight:bold}.problem{background:#fde7ea;border:1px solid #b00020;padding:8px;margin:8px 0}
.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{border:1px solid #ddd;padding:8px}
.chart h3{font-size:14px;margin:0 0 4px}.legend{font-size:12px}
.miss{background:#fff4e5}.answer{font-weight:bold;color:#006400}ol{margin:0;padding-left:22px}
.muted{color:#777}
`;

function header(report: BotEvalReport, first: SettingReport, generatedAt: string): string {
  const docs = report.documents === null ? "" : `, ${report.documents} documents`;
  return `<h1>${esc(report.bot)}</h1>
<p>${first.questions} questions (${first.answerable} answerable, ${first.unanswerable} unanswerable) from
<code>${esc(report.questionsFile)}</code>${docs}; index ready in ${report.indexMs} ms; generated ${esc(generatedAt)}.</p>`;
}

function problems(report: BotEvalReport): string {
  const lines = report.settings
    .filter((s) => !s.reliable)
    .map(
      (s) =>
        `<p class="problem"><b>${esc(s.setting)} did not run as configured:</b> ${esc(s.problem ?? "")}. Its weak-flag, rescue and final-text figures are not the model grader's.</p>`,
    );
  if (report.unmatchedRelevant.length) {
    const listed = report.unmatchedRelevant
      .map((u) => `<li>question ${esc(u.question)}: <code>${esc(u.path)}</code></li>`)
      .join("");
    lines.push(
      `<div class="problem"><b>Judged paths that match no document</b> (scored as misses):<ul>${listed}</ul></div>`,
    );
  }
  return lines.join("\n");
}

function summaryTable(report: BotEvalReport): string {
  const settings = report.settings;
  const head = settings
    .map((s) => `<th class="${s.reliable ? "" : "unreliable"}">${esc(settingHeading(s))}</th>`)
    .join("");
  const rows = summaryRows(settings[0]!)
    .map(
      (row) =>
        `<tr><th>${esc(row.label)}</th>${settings.map((s) => `<td class="num">${esc(row.cell(s))}</td>`).join("")}</tr>`,
    )
    .join("\n");
  return `<h2>Summary, one column per setting</h2>
<table id="summary"><thead><tr><th></th>${head}</tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

// ---- charts ---------------------------------------------------------------------------------

interface Series {
  name: string;
  colour: string;
  points: readonly [number, number][];
  /** Draw a dot per point (bins, ranks) rather than only the line. */
  dots?: boolean;
  dashed?: boolean;
}

interface ChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xRange: [number, number];
  series: readonly Series[];
  /** The y = x line (a perfect calibration, a chance ROC). */
  diagonal?: boolean;
  note?: string;
}

const W = 420;
const H = 300;
const PAD = { left: 48, right: 12, top: 12, bottom: 40 };

function chart(spec: ChartSpec): string {
  const [x0, x1] = spec.xRange;
  const px = (x: number) => PAD.left + ((x - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - y * (H - PAD.top - PAD.bottom);
  const ticks = (n: number) => Array.from({ length: n + 1 }, (_, i) => i / n);
  const grid = ticks(5)
    .map(
      (t) =>
        `<line x1="${px(x0)}" x2="${px(x1)}" y1="${f(py(t))}" y2="${f(py(t))}" stroke="#e5e5e5"/>` +
        `<text x="${PAD.left - 6}" y="${f(py(t) + 4)}" text-anchor="end" font-size="11">${t.toFixed(1)}</text>`,
    )
    .join("");
  const xTicks = (
    x1 - x0 > 1
      ? Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i)
      : ticks(5).map((t) => x0 + t * (x1 - x0))
  )
    .map(
      (x) =>
        `<text x="${f(px(x))}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="11">${Number.isInteger(x) ? x : x.toFixed(1)}</text>`,
    )
    .join("");
  const axes =
    `<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#444"/>` +
    `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#444"/>` +
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle" font-size="12">${esc(spec.xLabel)}</text>` +
    `<text transform="translate(12 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="12">${esc(spec.yLabel)}</text>`;
  const diagonal = spec.diagonal
    ? `<line class="diagonal" x1="${px(x0)}" y1="${py(0)}" x2="${px(x1)}" y2="${py(1)}" stroke="#999" stroke-dasharray="4 4"/>`
    : "";
  const lines = spec.series
    .map((s) => {
      const points = s.points.map(([x, y]) => `${f(px(x))},${f(py(y))}`).join(" ");
      const dash = s.dashed ? ` stroke-dasharray="6 3"` : "";
      const line = s.points.length
        ? `<polyline class="series" data-series="${esc(s.name)}" fill="none" stroke="${s.colour}" stroke-width="2.5"${dash} points="${points}"/>`
        : "";
      const dots = s.dots
        ? s.points
            .map(([x, y]) => `<circle cx="${f(px(x))}" cy="${f(py(y))}" r="3.5" fill="${s.colour}"/>`)
            .join("")
        : "";
      return line + dots;
    })
    .join("");
  const legend = spec.series
    .map((s) => `<span style="color:${s.colour}">■</span> ${esc(s.name)}`)
    .join(" &nbsp; ");
  return `<div class="chart"><h3>${esc(spec.title)}</h3>
<svg id="${spec.id}" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(spec.title)}">
<rect x="0" y="0" width="${W}" height="${H}" fill="#fff"/>${grid}${xTicks}${axes}${diagonal}${lines}
</svg>
<div class="legend">${legend}</div>${spec.note ? `<div class="legend muted">${esc(spec.note)}</div>` : ""}</div>`;
}

const inTop5 = (o: QuestionOutcome) => o.kind === "answerable" && o.searchRank > 0 && o.searchRank <= 5;

/** ROC of `bestScore` as a predictor of "an answer in the top 5", over every question. */
export function rocPoints(outcomes: readonly QuestionOutcome[]): [number, number][] {
  const positives = outcomes.filter(inTop5).length;
  const negatives = outcomes.length - positives;
  if (!positives || !negatives) return [];
  const sorted = [...outcomes].sort((a, b) => b.bestScore - a.bestScore);
  const points: [number, number][] = [[0, 0]];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (inTop5(sorted[i]!)) tp++;
    else fp++;
    // One point per distinct score: tied questions move together.
    if (i + 1 === sorted.length || sorted[i + 1]!.bestScore !== sorted[i]!.bestScore) {
      points.push([round3(fp / negatives), round3(tp / positives)]);
    }
  }
  return points;
}

function rocChart(setting: SettingReport): string {
  const outcomes = setting.perQuestion;
  const auc = rocAuc(
    outcomes.map((o) => o.bestScore),
    outcomes.map(inTop5),
  );
  const points = rocPoints(outcomes);
  return chart({
    id: "roc",
    title: `ROC of bestScore for "answer in the top 5" (AUC ${Number.isNaN(auc) ? "–" : auc.toFixed(3)})`,
    xLabel: "false positive rate",
    yLabel: "true positive rate",
    xRange: [0, 1],
    diagonal: true,
    series: [{ name: "bestScore", colour: PALETTE[0]!, points }],
    ...(points.length ? {} : { note: "needs questions both with and without an answer in the top 5" }),
  });
}

export interface ReliabilityBin {
  /** Mean relevance of the hits in the bin. */
  meanRelevance: number;
  /** Share of them judged relevant. */
  observed: number;
  hits: number;
}

/** Every search hit binned by its relevance; observed = share whose id matches a judged path. */
export function reliabilityBins(outcomes: readonly QuestionOutcome[]): ReliabilityBin[] {
  const bins = Array.from({ length: RELIABILITY_BINS }, () => ({ sum: 0, relevant: 0, hits: 0 }));
  for (const o of outcomes) {
    o.searchIds.forEach((id, i) => {
      const relevance = o.searchRelevance[i];
      if (relevance === undefined || !Number.isFinite(relevance)) return;
      const bin =
        bins[Math.min(RELIABILITY_BINS - 1, Math.max(0, Math.floor(relevance * RELIABILITY_BINS)))]!;
      bin.sum += relevance;
      bin.hits++;
      if (o.relevant.some((path) => matchesJudgedPath(id, path))) bin.relevant++;
    });
  }
  return bins
    .filter((b) => b.hits > 0)
    .map((b) => ({
      meanRelevance: round3(b.sum / b.hits),
      observed: round3(b.relevant / b.hits),
      hits: b.hits,
    }));
}

function reliabilityChart(setting: SettingReport): string {
  const bins = reliabilityBins(setting.perQuestion);
  return chart({
    id: "reliability",
    title: "Reliability of relevance (search hits, 10 bins)",
    xLabel: "mean relevance in bin",
    yLabel: "share judged relevant",
    xRange: [0, 1],
    diagonal: true,
    series: [
      {
        name: "hits",
        colour: PALETTE[1]!,
        dots: true,
        points: bins.map((b) => [b.meanRelevance, b.observed]),
      },
    ],
    note: `hits per bin: ${bins.map((b) => `${b.meanRelevance.toFixed(2)}→${b.hits}`).join(", ") || "none"}`,
  });
}

/** Share of answerable questions with an answer at rank ≤ k, k = 1..10. */
export function hitAtK(
  outcomes: readonly QuestionOutcome[],
  rank: (o: QuestionOutcome) => number,
): [number, number][] {
  const answerable = outcomes.filter((o) => o.kind === "answerable");
  if (!answerable.length) return [];
  return Array.from({ length: HIT_K_MAX }, (_, i) => {
    const k = i + 1;
    const r = answerable.filter((o) => rank(o) > 0 && rank(o) <= k).length / answerable.length;
    return [k, round3(r)];
  });
}

function hitAtKChart(report: BotEvalReport): string {
  const first = report.settings[0]!;
  const series: Series[] = [
    {
      name: "search",
      colour: SEARCH_COLOUR,
      dots: true,
      points: hitAtK(first.perQuestion, (o) => o.searchRank),
    },
    ...report.settings.map((s, i) => ({
      name: `final text, ${settingHeading(s)}`,
      colour: PALETTE[(i + 2) % PALETTE.length]!,
      dashed: true,
      points: hitAtK(s.perQuestion, (o) => o.finalRank),
    })),
  ];
  return chart({
    id: "hit-at-k",
    title: "hit@k of answerable questions",
    xLabel: "k (rank)",
    yLabel: "hit@k",
    xRange: [1, HIT_K_MAX],
    series,
  });
}

// ---- the question table ---------------------------------------------------------------------

/** Misses first (no answering page shown), then answers below the top 5, unanswerable, then found. */
function missOrder(o: QuestionOutcome): number {
  if (o.kind === "unanswerable") return 2;
  if (o.searchRank === 0) return 0;
  return o.searchRank > 5 ? 1 : 3;
}

function questionTable(report: BotEvalReport): string {
  const settings = report.settings;
  const first = settings[0]!;
  const order = first.perQuestion
    .map((o, i) => ({ o, i }))
    .sort((a, b) => missOrder(a.o) - missOrder(b.o) || a.i - b.i);
  const perSetting = settings.map((s) => new Map(s.perQuestion.map((o) => [o.id, o])));
  const settingHeads = settings
    .map(
      (s) =>
        `<th class="${s.reliable ? "" : "unreliable"}">${esc(settingHeading(s))}: flagged · rescued · +chars · final rank</th>`,
    )
    .join("");
  const rows = order
    .map(({ o }) => {
      const expected = o.relevant.length
        ? o.relevant.map((p) => `<code>${esc(p)}</code>`).join("<br>")
        : '<span class="muted">none (unanswerable)</span>';
      const pages = o.searchIds.length
        ? `<ol>${o.searchIds
            .slice(0, PAGES_LISTED)
            .map((id) => {
              const answers = o.relevant.some((p) => matchesJudgedPath(id, p));
              return `<li${answers ? ' class="answer"' : ""}>${esc(id)}</li>`;
            })
            .join(
              "",
            )}</ol>${o.searchIds.length > PAGES_LISTED ? `<span class="muted">+${o.searchIds.length - PAGES_LISTED} more</span>` : ""}`
        : '<span class="muted">no hits</span>';
      const cells = perSetting
        .map((bySetting) => {
          const s = bySetting.get(o.id);
          if (!s) return "<td>–</td>";
          const rescued = s.kind === "answerable" && s.searchRank === 0 && s.finalRank > 0;
          const failed = s.graderFailures
            ? ` <span class="unreliable">(${s.graderFailures} grader call failed)</span>`
            : "";
          return `<td class="num">${s.flagged ? "flagged" : "–"} · ${rescued ? "rescued" : "–"} · ${s.finalChars - s.originalChars} · ${s.finalRank || "–"}${failed}</td>`;
        })
        .join("");
      const miss = o.kind === "answerable" && o.searchRank === 0;
      return `<tr${miss ? ' class="miss"' : ""}><td>${esc(o.text)}<br><span class="muted">${esc(o.id)}</span></td><td>${o.kind}</td><td>${expected}</td><td>${pages}</td><td class="num">${o.searchRank || "–"}</td>${cells}</tr>`;
    })
    .join("\n");
  const misses = first.perQuestion.filter((o) => o.kind === "answerable" && o.searchRank === 0).length;
  return `<h2>Every question, misses first (${misses} of ${first.answerable} answerable questions missed; ${percent(first.search.hit5)} hit@5)</h2>
<table id="questions"><thead><tr><th>question</th><th>kind</th><th>expected pages</th><th>pages returned, by rank (answering pages in bold)</th><th>answer rank</th>${settingHeads}</tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

// ---- helpers --------------------------------------------------------------------------------

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function esc(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const f = (x: number) => (Math.round(x * 10) / 10).toString();
const round3 = (x: number) => Math.round(x * 1000) / 1000;
