import { describe, expect, it } from 'vitest';
import { testResult } from '../engine/testing/results.ts';
import type { CaseResult } from '../engine/types.ts';
import { stepBaselines } from './stepBaselines.ts';

const base = { method: 'exact', vEmpty: 0, vAll: 1, cost: 1, evaluations: 4, permutations: 0 } as const;

describe('stepBaselines', () => {
  it('averages Shapley and the baselines over analysed failures only, and counts last touch', () => {
    const results: CaseResult[] = [
      { ...base, id: '1', players: ['a', 'b'], failed: true, shapley: { a: 1, b: 0 }, fixAlone: { a: 1, b: 0 }, leaveOneOut: { a: 1, b: 0 }, lastTouch: 'b' },
      { ...base, id: '2', players: ['a', 'b'], failed: true, shapley: { a: 0.5, b: 0.5 }, fixAlone: { a: 1, b: 1 }, leaveOneOut: { a: 0, b: 0 }, lastTouch: 'b' },
      { ...base, id: 'passed', players: ['a', 'b'], failed: false, shapley: { a: 9, b: 9 } },
      { ...base, id: 'error', players: ['a', 'b'], failed: true, error: 'step a threw' },
    ].map(testResult);
    expect(stepBaselines(results, ['b', 'a'])).toEqual({
      analysed: 2,
      steps: [
        { step: 'b', shapley: 0.25, fixAlone: 0.5, leaveOneOut: 0, lastTouch: 2 },
        { step: 'a', shapley: 0.75, fixAlone: 1, leaveOneOut: 0.5, lastTouch: 0 },
      ],
    });
  });
});
