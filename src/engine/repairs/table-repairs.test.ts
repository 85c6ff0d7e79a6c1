import { describe, expect, it } from 'vitest';
import type { AttributedCaseResult } from '../types.ts';
import { joinCoalitions, packCoalitions } from '../packed-coalitions.ts';
import { repairsFromTable } from './table-repairs.ts';

/** v({}) = 0, v({a}) = 0.4, v({b}) = 1, v({a, b}) = 1, v with c adds nothing: {b} is the only minimal repair at success 1. */
function failure(): AttributedCaseResult {
  const players = ['a', 'b', 'c'];
  const coalitions = Array.from({ length: 8 }, (_, mask) => ({
    fixed: players.filter((_, i) => (mask >> i) & 1),
    value: mask & 2 ? 1 : mask & 1 ? 0.4 : 0,
  }));
  return {
    id: 'q', players, method: 'exact', failed: true, vEmpty: 0, vAll: 1, cost: 0, evaluations: 8, permutations: 0,
    shapley: { a: 0.2, b: 0.8, c: 0 }, fixAlone: { a: 0.4, b: 1, c: 0 }, leaveOneOut: { a: 0, b: 0.6, c: 0 }, stopReason: 'exact', fixable: true,
    coalitions,
  };
}

describe('repairs read off a coalition table', () => {
  it('a packed table (as results arrive from a worker) is read as it is, with the same repairs as the unpacked one', () => {
    const plain = failure();
    const packed = packCoalitions(plain.players, plain.coalitions!)!;
    const joined = joinCoalitions({ ...plain, coalitions: undefined }, packed) as AttributedCaseResult;
    // Unpacking it would throw: the repairs must come from the packed arrays.
    Object.defineProperty(joined, 'coalitions', { enumerable: true, configurable: true, get: () => { throw new Error('the table was unpacked'); } });
    const expected = repairsFromTable(plain, 1);
    expect(expected?.repairs).toEqual([{ fixed: ['b'], value: 1, cost: 1 }]);
    expect(repairsFromTable(joined, 1)).toEqual(expected);
  });

  it('a table missing a coalition gives no repairs, packed or not', () => {
    const plain = failure();
    plain.coalitions = plain.coalitions!.slice(1);
    expect(repairsFromTable(plain, 1)).toBeNull();
    const joined = joinCoalitions({ ...plain, coalitions: undefined }, packCoalitions(plain.players, plain.coalitions)!) as AttributedCaseResult;
    expect(repairsFromTable(joined, 1)).toBeNull();
  });
});
