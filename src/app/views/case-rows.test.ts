import { describe, expect, it } from 'vitest';
import { testResult } from '../../engine/testing/results.ts';
import type { CaseResult } from '../../engine/types.ts';
import { orderCases, type CaseRow } from './case-rows.ts';

function result(id: string, failed: boolean, shapley: Record<string, number>, error?: string): CaseResult {
  return testResult({ id, players: Object.keys(shapley), method: 'exact', failed, vEmpty: failed ? 0 : 1, vAll: 1, shapley, cost: 1, evaluations: 1, permutations: 0, ...(error ? { error } : {}) });
}

const rows: CaseRow[] = [
  { id: 'q1', index: 0, result: result('q1', false, { a: 0, b: 0 }) },
  { id: 'q2', index: 1, result: result('q2', true, { a: 0.2, b: 0.8 }) },
  { id: 'q3', index: 2 },
  { id: 'q4', index: 3, result: result('q4', true, { a: 0.9, b: 0.1 }) },
  { id: 'x5', index: 4, result: result('x5', true, {}, 'step b threw') },
];

describe('orderCases', () => {
  it('puts broken and failing cases first, keeping study order within a group', () => {
    expect(orderCases(rows, '', false, { by: 'status' }).map((r) => r.id)).toEqual(['x5', 'q2', 'q4', 'q3', 'q1']);
  });
  it('sorts by one step’s blame, highest first, cases without a value last', () => {
    expect(orderCases(rows, '', false, { by: 'step', step: 'b', dir: 'desc' }).map((r) => r.id)).toEqual(['q2', 'q4', 'q1', 'q3', 'x5']);
  });
  it('sorts ascending too, so negative blame comes first, cases without a value (passed, pending, broken) still last', () => {
    const withNegative: CaseRow[] = [...rows, { id: 'q6', index: 5, result: result('q6', true, { a: 0.5, b: -0.4 }) }];
    expect(orderCases(withNegative, '', false, { by: 'step', step: 'b', dir: 'asc' }).map((r) => r.id)).toEqual(['q6', 'q4', 'q2', 'q1', 'q3', 'x5']);
  });
  it('filters by id and by failing', () => {
    expect(orderCases(rows, 'Q', true, { by: 'status' }).map((r) => r.id)).toEqual(['q2', 'q4']);
  });
});
