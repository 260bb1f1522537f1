/**
 * L2-regularised logistic regression fitted by Newton's method (IRLS). Hand-written because it
 * is thirty lines, deterministic, and the calibration needs nothing more: a handful of features
 * and a few thousand labelled hits. Features are standardised inside; the returned weights
 * apply to raw features.
 */
export interface LogisticModel {
  weights: number[];
  bias: number;
}

/**
 * `weights` (one per row, default 1) let each judged collection count the same whatever its
 * number of questions, so the fit is not the largest collection's.
 */
export function fitLogistic(
  X: readonly number[][],
  y: readonly number[],
  options: { l2?: number; iterations?: number; sampleWeights?: readonly number[] } = {},
): LogisticModel {
  const l2 = options.l2 ?? 1e-3;
  const iterations = options.iterations ?? 50;
  const sw = options.sampleWeights;
  const n = X.length;
  const totalWeight = sw ? sw.reduce((a, b) => a + b, 0) : n;
  const d = X[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const row of X) for (let k = 0; k < d; k++) mean[k]! += row[k]! / n;
  for (const row of X) for (let k = 0; k < d; k++) scale[k]! += (row[k]! - mean[k]!) ** 2 / n;
  for (let k = 0; k < d; k++) scale[k] = Math.sqrt(scale[k]!) || 1;
  const Z = X.map((row) => [...row.map((v, k) => (v - mean[k]!) / scale[k]!), 1]);
  const w = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const z = Z[i]!;
      const p = sigmoid(dot(w, z));
      const c = sw ? sw[i]! : 1;
      const r = c * p * (1 - p);
      for (let a = 0; a <= d; a++) {
        grad[a]! += c * (p - y[i]!) * z[a]!;
        for (let b = 0; b <= d; b++) hess[a]![b]! += r * z[a]! * z[b]!;
      }
    }
    for (let a = 0; a < d; a++) {
      grad[a]! += l2 * totalWeight * w[a]!;
      hess[a]![a]! += l2 * totalWeight;
    }
    const step = solve(hess, grad);
    let moved = 0;
    for (let a = 0; a <= d; a++) {
      w[a]! -= step[a]!;
      moved = Math.max(moved, Math.abs(step[a]!));
    }
    if (moved < 1e-9) break;
  }
  const weights = w.slice(0, d).map((v, k) => v / scale[k]!);
  const bias = w[d]! - weights.reduce((sum, v, k) => sum + v * mean[k]!, 0);
  return { weights, bias };
}

export function predict(model: LogisticModel, x: readonly number[]): number {
  return sigmoid(model.bias + dot(model.weights, x));
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Gaussian elimination with partial pivoting (the system is tiny and positive definite). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[pivot]![c]!)) pivot = r;
    [M[c], M[pivot]] = [M[pivot]!, M[c]!];
    const p = M[c]![c]! || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / p;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((row, i) => row[n]! / (row[i]! || 1e-12));
}
