/** Failures with planted blame, for the trend tests and the bench (hand-made, not engine output). */
import { testResult } from './results.ts';
import type { CaseResult } from '../types.ts';

export const TREND_STEPS = ['planner', 'retriever', 'writer'];

/** n failures, each blamed wholly on one step: `counts[step]` of them on that step, the rest on writer. */
export function blamedFailures(prefix: string, n: number, counts: Record<string, number>, steps: readonly string[] = TREND_STEPS): CaseResult[] {
  const owners: string[] = [];
  for (const [step, c] of Object.entries(counts)) for (let k = 0; k < c; k++) owners.push(step);
  while (owners.length < n) owners.push(steps[steps.length - 1]);
  return owners.map((owner, k) => {
    const shapley = Object.fromEntries(steps.map((s) => [s, s === owner ? 1 : 0]));
    return testResult({ id: `${prefix}-${k}`, players: [...steps], shapley, fixAlone: shapley, vEmpty: 0, vAll: 1, lastTouch: owner });
  });
}

/**
 * The planted drift: ten weeks from Monday 2026-01-05, two studies a week (Monday and Thursday) of
 * `perStudy` failures each; retriever's share moves from 20 % to 60 %, planner's stays at 30 %
 * exactly, writer takes the rest (50 % down to 10 %).
 */
export function plantedDriftStudies(perStudy = 100): { id: string; recordedAt: string; results: CaseResult[] }[] {
  const out: { id: string; recordedAt: string; results: CaseResult[] }[] = [];
  for (let w = 0; w < 10; w++) {
    const retriever = Math.round((0.2 + (0.4 * w) / 9) * perStudy);
    for (const day of [0, 3]) {
      const id = `w${w}d${day}`;
      out.push({ id, recordedAt: new Date(Date.UTC(2026, 0, 5 + 7 * w + day, 9)).toISOString(), results: blamedFailures(id, perStudy, { retriever, planner: Math.round(0.3 * perStudy) }) });
    }
  }
  return out;
}
