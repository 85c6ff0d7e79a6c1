/**
 * Synthetic games with known Shapley values, for the scaling and sample-efficiency workloads.
 */
import type { PipelineDef, StepDef } from '../../src/engine/types.ts';

/**
 * v(S) = (sum_{i in S} a_i)^2 / A^2 with a_i = i + 1 and A = sum a_i, as a value table by
 * bitmask. Each pair term 2 a_i a_j is split equally, so phi_i = (a_i^2 + a_i (A - a_i)) / A^2
 * = a_i / A (closed form).
 */
export function quadraticTable(n: number): { values: Float64Array; exact: number[] } {
  const a = Array.from({ length: n }, (_, i) => i + 1);
  const total = a.reduce((s, x) => s + x, 0);
  const sums = new Float64Array(2 ** n);
  const values = new Float64Array(2 ** n);
  for (let mask = 1; mask < sums.length; mask++) {
    const low = 31 - Math.clz32(mask & -mask);
    sums[mask] = sums[mask & (mask - 1)] + a[low];
    values[mask] = (sums[mask] / total) ** 2;
  }
  return { values, exact: a.map((x) => x / total) };
}

/** Integer weights 1..5 in a fixed pattern, and a quota just above half the total. */
export function majorityWeights(n: number): { weights: number[]; quota: number } {
  const weights = Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 5));
  const total = weights.reduce((s, w) => s + w, 0);
  return { weights, quota: Math.floor(total / 2) + 1 };
}

/**
 * Exact Shapley values of the weighted majority game v(S) = [w(S) >= q] by dynamic programming
 * over (coalition size, weight): phi_i = sum_s N_i(s) / (n C(n-1, s)), where N_i(s) counts the
 * coalitions S without i of size s with q - w_i <= w(S) < q (i is pivotal).
 */
export function majorityShapley(weights: readonly number[], quota: number): number[] {
  const n = weights.length;
  const total = weights.reduce((s, w) => s + w, 0);
  return weights.map((wi, i) => {
    // counts[s][w]: coalitions of the other players with size s and weight w.
    const counts = Array.from({ length: n }, () => new Float64Array(total + 1));
    counts[0][0] = 1;
    let seen = 0;
    weights.forEach((w, j) => {
      if (j === i) return;
      seen++;
      for (let s = seen; s >= 1; s--) for (let x = total; x >= w; x--) counts[s][x] += counts[s - 1][x - w];
    });
    let phi = 0;
    let binom = 1; // C(n-1, s)
    for (let s = 0; s < n; s++) {
      let pivotal = 0;
      for (let x = Math.max(0, quota - wi); x < quota; x++) pivotal += counts[s][x];
      phi += pivotal / (n * binom);
      binom = (binom * (n - 1 - s)) / (s + 1);
    }
    return phi;
  });
}

/**
 * The weighted majority game as a pipeline, so Monte Carlo pays step costs through the real
 * replay and step cache: a chain of n "voter" steps passing a tally; as run a voter adds
 * nothing, its fix adds its weight; the metric is 1 when the tally reaches the quota.
 * Every step and fix costs 1.
 */
export function majorityPipeline(n: number): { def: PipelineDef; exact: number[] } {
  const { weights, quota } = majorityWeights(n);
  return { def: weightedMajorityPipeline(weights, quota), exact: majorityShapley(weights, quota) };
}

/** The weighted majority game with the given weights and quota as a pipeline (see majorityPipeline). */
export function weightedMajorityPipeline(weights: readonly number[], quota: number): PipelineDef {
  const n = weights.length;
  const steps: StepDef[] = weights.map((w, i) => {
    const input = i === 0 ? 'start' : `voter${i - 1}`;
    return {
      name: `voter${i}`,
      inputs: [input],
      cost: 1,
      run: (inputs) => inputs[input] as number,
      fixes: [{ name: 'votes', cost: 1, run: (inputs) => (inputs[input] as number) + w }],
    };
  });
  const last = `voter${n - 1}`;
  return { name: `majority-${n}`, steps, metric: (outputs) => ((outputs[last] as number) >= quota ? 1 : 0) };
}
