import type { SessionContrast } from '../types.ts';

/**
 * A run's contrast at 35 replays per arm: redoing the Calculator's turn alone changes the outcome,
 * and its recorded prefix commits to the failure. The intervals are the 95% Wilson and Newcombe
 * hybrid score intervals, computed with python3 (standard library, z = 1.959963984540054) and
 * rounded to 4 decimals: Wilson(0, 35) = [0, 0.0989], Wilson(35, 35) = [0.9011, 1],
 * Newcombe(0/35 - 0/35) = [-0.0989, 0.0989], Newcombe(0/35 - 35/35) = [-1, -0.8601].
 */
export function sampleContrast(run = 'q1'): SessionContrast {
  const none = { failures: 0, n: 35, rate: 0, ci: [0, 0.0989] as [number, number] };
  const all = { failures: 35, n: 35, rate: 1, ci: [0.9011, 1] as [number, number] };
  return {
    version: 1,
    replays: 35,
    runs: [
      {
        run,
        commitment: { index: 1, step: 2, name: 'Calculator chat', agent: 'Calculator' },
        contrast: [
          { index: 0, step: 1, name: 'Planner chat', agent: 'Planner', regenerated: none, kept: none, difference: 0, ci: [-0.0989, 0.0989] },
          { index: 1, step: 2, name: 'Calculator chat', agent: 'Calculator', regenerated: none, kept: all, difference: -1, ci: [-1, -0.8601] },
          { index: 3, step: 4, name: 'Reporter chat', agent: 'Reporter', regenerated: all, kept: all, difference: 0, ci: [-0.0989, 0.0989] },
        ],
        errors: 0,
      },
    ],
  };
}
