/** Exact Shapley on a cheap game (a value table) for growing n: the 2^n wall. */
import { analyzeTableGame, DEFAULT_SETTINGS, exactShapleyFromTable } from '../../src/engine/index.ts';
import { quadraticTable } from '../lib/synthetic-games.ts';
import { timeRuns } from '../lib/measure.ts';
import { maxAbsError, type WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

export async function exactScalingWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const rows: WorkloadResult[] = [];
  for (const n of sizes.exactPlayers) {
    const { values, exact } = quadraticTable(n);
    const players = Array.from({ length: n }, (_, i) => `p${i}`);
    const settings = { ...DEFAULT_SETTINGS, method: 'exact' as const };
    // The product path (a game file's table): Shapley plus the baselines and bookkeeping.
    const full = await timeRuns(sizes.runs, sizes.warmup, () => analyzeTableGame({ id: `quadratic-${n}`, players, values, range: [0, 1] }, settings));
    // The kernel alone: phi from the table.
    const kernel = await timeRuns(sizes.runs, sizes.warmup, () => exactShapleyFromTable(values, n));
    rows.push({
      group: 'exact-scaling',
      name: `exact Shapley, n = ${n} (2^${n} coalitions)`,
      ...full.timing,
      cost: 0,
      evaluations: full.result.evaluations,
      maxError: maxAbsError(players.map((p) => full.result.shapley![p]), exact),
      detail: { kernelWallMs: kernel.timing.wallMs, kernelMaxError: maxAbsError(kernel.result, exact) },
    });
  }
  return rows;
}
