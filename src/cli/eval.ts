// `second-look eval <dir> --format cranfield|beir [--json]`: quality and speed on judged data.
import { readBeir } from "../evaluation/beir.js";
import { readCranfield } from "../evaluation/cranfield.js";
import { type EvaluationReport, runEvaluation } from "../evaluation/run-evaluation.js";
import { CliError } from "./cli-error.js";
import { progressReporter } from "./progress.js";

const FORMATS = ["cranfield", "beir"] as const;

export async function runEval(
  dir: string,
  options: { format: string; json: boolean },
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  if (!(FORMATS as readonly string[]).includes(options.format)) {
    throw new CliError(`--format must be one of ${FORMATS.join(", ")}, got "${options.format}"`);
  }
  const dataset = options.format === "cranfield" ? await readCranfield(dir) : await readBeir(dir);
  if (!dataset.queries.length) throw new CliError(`${dir}: no judged queries`);
  const progress = progressReporter(!options.json);
  const report = runEvaluation(dataset, { onProgress: progress.update });
  progress.stop();
  io.stdout.write(options.json ? `${JSON.stringify(report)}\n` : humanReport(dataset.name, report));
  return 0;
}

function humanReport(name: string, r: EvaluationReport): string {
  const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);
  const hint = r.corrective;
  return [
    `${name}: ${r.docs} documents, ${r.queries} judged queries, indexed in ${r.indexMs} ms`,
    `nDCG@10 ${r.ndcg10.toFixed(3)} · MAP@100 ${r.map100.toFixed(3)} · R@100 ${r.recall100.toFixed(3)} · miss@10 ${pct(r.miss10)}`,
    `first pass (no rerank): nDCG@10 ${r.firstPass.ndcg10.toFixed(3)} · MAP@100 ${r.firstPass.map100.toFixed(3)}`,
    `query ms p50 ${r.queryMs.p50} · p95 ${r.queryMs.p95} · p99 ${r.queryMs.p99}`,
    `bands: ${(["high", "medium", "low"] as const).map((b) => `${b} ${r.bands[b].hits} hits, ${pct(r.bands[b].precision)} relevant`).join(" · ")}`,
    `weak: ${r.weak.flagged} flagged · AUC ${r.weak.auc.toFixed(3)} · precision ${pct(r.weak.precision)} · recall ${pct(r.weak.recall)}`,
    `corrective: ${hint.requeried} re-queried, ${hint.rescued} rescued · recall ${hint.recallBefore.toFixed(3)} → ${hint.recallAfter.toFixed(3)}`,
    `grader calls per 100 searches: haiku ${r.grader.haikuCallsPer100} · auto ${r.grader.autoCallsPer100}`,
    "",
  ].join("\n");
}
