// `eval <bot> --questions --fail-under hit5=0.6,falseAlarms<=0.2,…`: the figures a CI job gates a
// bot on. `name=x` and `name>=x` ask at least x, `name<=x` at most x; every compared setting is
// checked; a figure that could not be measured (nothing counted) fails its gate, because a gate
// that passes on no evidence flatters.
import type { BotEvalFigures } from "./bot-metrics.js";
import { EvaluationError } from "./evaluation-error.js";

/** The figures a gate can name, each read from one setting's figures (rates 0..1). */
export const GATE_FIGURES = {
  hit1: (f) => f.search.hit1,
  hit5: (f) => f.search.hit5,
  hit10: (f) => f.search.hit10,
  mrr10: (f) => f.search.mrr10,
  finalHit1: (f) => f.final.hit1,
  finalHit5: (f) => f.final.hit5,
  finalHit10: (f) => f.final.hit10,
  finalMrr10: (f) => f.final.mrr10,
  anywhere: (f) => f.final.anywhere,
  falseAlarms: (f) => f.weak.falseAlarms.rate,
  missesCaught: (f) => f.weak.missesCaught.rate,
  unanswerableFlagged: (f) => f.weak.unanswerableFlagged.rate,
  auc: (f) => f.weak.auc,
  rescued: (f) => f.rescue.rate,
  modelCallsPer100: (f) => f.modelCallsPer100,
  latencyP50: (f) => f.latencyMs.p50,
  latencyP95: (f) => f.latencyMs.p95,
} as const satisfies Record<string, (f: BotEvalFigures) => number | null>;

export type GateFigure = keyof typeof GATE_FIGURES;

export interface Gate {
  figure: GateFigure;
  /** `min`: the figure must be at least `value`; `max`: at most. */
  bound: "min" | "max";
  value: number;
}

export interface GateFailure {
  setting: string;
  gate: Gate;
  /** The measured figure, null when nothing was counted. */
  actual: number | null;
}

export class GateSpecError extends EvaluationError {
  constructor(message: string) {
    super("bad-gate", message);
    this.name = "GateSpecError";
  }
}

/** More gates than figures is a pasted mistake, not a gate list. */
const MAX_GATES = 64;
const GATE_SHAPE = /^([A-Za-z0-9]+)\s*(<=|>=|=)\s*([-+]?\d+(?:\.\d+)?)(%?)$/;

/** `hit5=0.6,falseAlarms<=0.2` → gates; a percentage (`60%`) is read as a rate. */
export function parseGates(spec: string): Gate[] {
  const parts = spec
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) throw new GateSpecError("--fail-under is empty; e.g. hit5=0.6,falseAlarms<=0.2");
  if (parts.length > MAX_GATES) throw new GateSpecError(`--fail-under: more than ${MAX_GATES} gates`);
  return parts.map((part) => {
    const match = GATE_SHAPE.exec(part);
    if (!match) {
      throw new GateSpecError(
        `--fail-under: "${part}" is not name=value, name>=value or name<=value (e.g. hit5=0.6,falseAlarms<=0.2)`,
      );
    }
    const [, name, op, number, pct] = match;
    if (!Object.hasOwn(GATE_FIGURES, name!)) {
      throw new GateSpecError(
        `--fail-under: unknown figure "${name}"; use ${Object.keys(GATE_FIGURES).join(", ")}`,
      );
    }
    const value = Number(number) / (pct ? 100 : 1);
    return { figure: name as GateFigure, bound: op === "<=" ? "max" : "min", value };
  });
}

/** Every gate checked on every setting; the failures in setting order, then gate order. */
export function checkGates(
  settings: readonly (BotEvalFigures & { setting: string })[],
  gates: readonly Gate[],
): GateFailure[] {
  const failures: GateFailure[] = [];
  for (const s of settings) {
    for (const gate of gates) {
      const actual = GATE_FIGURES[gate.figure](s);
      const passes = actual !== null && (gate.bound === "min" ? actual >= gate.value : actual <= gate.value);
      if (!passes) failures.push({ setting: s.setting, gate, actual });
    }
  }
  return failures;
}

/** The failures as one line: `signal hit5 0.55 (needs ≥ 0.6); …`. */
export function gateFailuresLine(failures: readonly GateFailure[]): string {
  return failures
    .map(({ setting, gate, actual }) => {
      const needs = `needs ${gate.bound === "min" ? "≥" : "≤"} ${gate.value}`;
      return `${setting} ${gate.figure} ${actual === null ? "not measured" : actual} (${needs})`;
    })
    .join("; ");
}
