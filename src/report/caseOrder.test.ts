import { describe, expect, it } from 'vitest';
import { testResult, type LooseResult } from '../engine/testing/results.ts';
import type { CaseResult } from '../engine/types.ts';
import { rankCasesForDrillDown, topStep } from './caseOrder.ts';

const result = (id: string, extra: Partial<LooseResult>): CaseResult => testResult({
  id, players: ['a', 'b'], method: 'exact', failed: true, vEmpty: 0, vAll: 1, cost: 1, evaluations: 4, permutations: 0, ...extra,
});

describe('case ranking', () => {
  it('finds the top step and ignores inherited keys', () => {
    expect(topStep(result('x', { shapley: { a: 0.2, b: 0.7 } }))).toEqual({ step: 'b', value: 0.7 });
    expect(topStep(result('x', { players: ['constructor'], shapley: {} }))).toBeNull();
  });
  it('puts errors first, then failures by largest Shapley value, then the rest, keeping ties in order', () => {
    const ranked = rankCasesForDrillDown([
      result('pass', { failed: false, shapley: { a: 0.9, b: 0 } }),
      result('low', { shapley: { a: 0.1, b: 0.2 } }),
      result('high', { shapley: { a: 0.8, b: 0.2 } }),
      result('err', { error: 'step a threw' }),
      result('low2', { shapley: { a: 0.2, b: 0.1 } }),
    ]);
    expect(ranked.map((r) => r.id)).toEqual(['err', 'high', 'low', 'low2', 'pass']);
  });
});
