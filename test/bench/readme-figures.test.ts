// Every figure the README and the topic pages in docs/ quote from a benchmark is marked
// `<!--fig <result>:<path>-->` right before it, naming the committed result (bench/results/<result>.json) and the value's path in
// it. This test reads each marked figure and fails when it disagrees with the result at the
// README's own precision, so a re-run bench whose figures moved cannot leave the README stale.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** `<!--fig name:path-->` then the figure: optional bold, digits with thousands commas, optional %. */
const MARKED = /<!--fig ([a-z0-9-]+):([^>]+?)-->(\**)(-?[\d,]*\.?\d+)(\s?%)?/g;

interface MarkedFigure {
  result: string;
  path: string;
  text: string;
  percent: boolean;
}

function markedFigures(markdown: string): MarkedFigure[] {
  return [...markdown.matchAll(MARKED)].map((m) => ({
    result: m[1]!,
    path: m[2]!,
    text: m[4]!,
    percent: m[5] !== undefined,
  }));
}

/**
 * A path into a result: keys joined by ".", an array element picked by `[field=value]` (several
 * conditions joined by "&"). Keys hold no "."; values may hold spaces and commas.
 */
function resolvePath(root: unknown, path: string): unknown {
  let node = root;
  for (const segment of path.split(".")) {
    const pick = /^([^[]+)(?:\[(.+)\])?$/.exec(segment);
    if (!pick) return undefined;
    node = (node as Record<string, unknown> | undefined)?.[pick[1]!];
    if (pick[2] !== undefined) {
      const conditions = pick[2].split("&").map((c) => c.split("=") as [string, string]);
      node = Array.isArray(node)
        ? node.find((item) =>
            conditions.every(([k, v]) => String((item as Record<string, unknown>)[k]) === v),
          )
        : undefined;
    }
  }
  return node;
}

/** Why a marked figure disagrees with its result, or null when it agrees at the README's precision. */
function disagreement(figure: MarkedFigure, results: (name: string) => unknown): string | null {
  const value = resolvePath(results(figure.result), figure.path);
  const where = `${figure.result}:${figure.path}`;
  if (typeof value !== "number")
    return `${where}: README says ${figure.text}, the result has ${JSON.stringify(value)}`;
  const quoted = Number(figure.text.replaceAll(",", ""));
  const decimals = figure.text.split(".")[1]?.length ?? 0;
  const measured = figure.percent ? value * 100 : value;
  const rounded = Number(measured.toFixed(decimals));
  return rounded === quoted ? null : `${where}: README says ${figure.text}, the result rounds to ${rounded}`;
}

const cache = new Map<string, unknown>();
const committed = (name: string) => {
  if (!cache.has(name)) {
    cache.set(name, JSON.parse(readFileSync(join(repo, "bench/results", `${name}.json`), "utf8")));
  }
  return cache.get(name);
};

/** The README and every topic page in docs/ (not the reference summaries below it). */
function documentationPages(): string[] {
  const topics = readdirSync(join(repo, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join("docs", name));
  return ["README.md", ...topics];
}

describe("README and docs figures against the committed bench results", () => {
  const figures = documentationPages().flatMap((page) =>
    markedFigures(readFileSync(join(repo, page), "utf8")),
  );

  it("marks the measured figures (Cranfield quality and signal, bands, calibration, calibrate, handbook, strategies, ranking parameters, PDF words)", () => {
    expect(figures.length).toBeGreaterThanOrEqual(140);
    expect(new Set(figures.map((f) => f.result))).toEqual(
      new Set([
        "quality",
        "bands",
        "bot-calibrate",
        "calibration",
        "docbots",
        "strategies",
        "weak-signal-ceiling",
        "ranking-params",
        "pdf-words",
      ]),
    );
  });

  it("every marked figure equals its result at the README's precision", () => {
    expect(figures.map((f) => disagreement(f, committed)).filter((d) => d !== null)).toEqual([]);
  });

  it("catches a figure that moved, one that is missing and a percentage read as a rate", () => {
    const result = { rows: [{ system: "a b, c", ndcg10: 0.3941, share: 0.3953 }] };
    const check = (markdown: string) => markedFigures(markdown).map((f) => disagreement(f, () => result));
    expect(
      check(
        "<!--fig r:rows[system=a b, c].ndcg10-->0.394 and **<!--fig r:rows[system=a b, c].share-->39.5 %**",
      ),
    ).toEqual([null, null]);
    expect(check("<!--fig r:rows[system=a b, c].ndcg10-->0.409")).toEqual([
      "r:rows[system=a b, c].ndcg10: README says 0.409, the result rounds to 0.394",
    ]);
    expect(check("<!--fig r:rows[system=x].ndcg10-->0.394")[0]).toMatch(/the result has undefined/);
    expect(check("<!--fig r:rows[system=a b, c].share-->0.4 %")[0]).toMatch(/rounds to 39.5/);
  });
});
