/**
 * The steps whose sampled Shapley value lies outside its own interval. The intervals are clipped
 * to what a Shapley value can be, while a KernelSHAP mean stopped after a few samples (a small
 * budget) can lie beyond that (shapley/kernel.ts): the command and the page name such a step
 * rather than show a value outside its interval without a word.
 */
import type { CaseResult } from './types.ts';
import { ownValue } from './named-record.ts';

export interface OutsideInterval {
  step: string;
  value: number;
  ci: readonly [number, number];
}

export function outsideTheirIntervals(r: Pick<CaseResult, 'players' | 'shapley' | 'ci'>): OutsideInterval[] {
  if (!r.shapley || !r.ci) return [];
  return r.players.flatMap((step) => {
    const value = ownValue<number>(r.shapley, step);
    const ci = ownValue<readonly [number, number]>(r.ci, step);
    return value !== undefined && ci !== undefined && (value < ci[0] || value > ci[1]) ? [{ step, value, ci }] : [];
  });
}
