import { describe, expect, it } from 'vitest';
import type { AttributedCaseResult } from '../types.ts';
import { joinCoalitions, packCoalitions } from '../packed-coalitions.ts';
import { repairsFromTable, repairsOfTable } from './table-repairs.ts';
import { minimalRepairs } from './minimal-repairs.ts';

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

describe('repairs of a complete table in one pass', () => {
  it('property: the same repairs, in the same order, as the search of every combination', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + (trial % 8);
      const values = Float64Array.from({ length: 2 ** n }, () => Math.round(random() * 10) / 10);
      const success = [0.5, 0.8, 1, values[0]][trial % 4];
      const searched = minimalRepairs({ players: Array.from({ length: n }, (_, i) => `s${i}`), value: (mask) => values[Number(mask)] }, success, n);
      expect(repairsOfTable(values, n, success)).toEqual(searched.repairs);
    }
  });
});
