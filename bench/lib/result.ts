/** One measured workload, as printed in the table and written to bench/results.json. */
export interface WorkloadResult {
  /** Which part of the suite: demo:refund, demo:rag, demo:eight-step, exact-scaling, mc-efficiency, sandbox. */
  group: string;
  name: string;
  /** Median wall time over the timed runs (ms). */
  wallMs: number;
  /** Median CPU time of this process, all threads (ms). */
  cpuMs: number;
  wallRunsMs: number[];
  /** Step cost spent (cache misses charged their step's cost). */
  cost?: number;
  /** Coalition evaluations (distinct coalitions valued; for Monte Carlo, permutations are in detail). */
  evaluations?: number;
  /** Max |estimate - exact| over the players, for estimates. */
  maxError?: number;
  /** Anything else worth reading (failures, permutations, top step, ratios...). */
  detail?: Record<string, unknown>;
  /** The reference's figure for this workload, and what it measures. */
  reference?: { what: string; value: number; ours: number; unit: 'ms' | 'count' };
  /**
   * A workload of ours that the reference's demo does not run (its estimators and stops that came
   * later: the Monte Carlo batch, the anytime and bandit stops): shown in its demo's group, left
   * out of the demo's total compared with the reference's wall time, which is the like-for-like work.
   */
  beyondReference?: true;
}

/** Max |a_i - b_i|. */
export function maxAbsError(estimate: readonly number[], exact: readonly number[]): number {
  let m = 0;
  for (let i = 0; i < exact.length; i++) m = Math.max(m, Math.abs(estimate[i] - exact[i]));
  return m;
}
