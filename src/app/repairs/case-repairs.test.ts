import { describe, expect, it } from 'vitest';
import type { AttributedCaseResult } from '../../engine/types.ts';
import { caseRepairs, pageConsensus, pageSuccess } from './case-repairs.ts';
import { successLevel } from '../../engine/repairs/success-level.ts';

/**
 * A failure of a metric scored from 0 to 10, analysed exactly without a repair search: its
 * repairs come from the coalition table. v({}) = 0, v({a}) = 4, v({b}) = 10, v({a, b}) = 10, so
 * at success 10 the only minimal repair is {b}; at success 1, {a} would count as well.
 */
function tenPointFailure(): AttributedCaseResult {
  return {
    id: 'q', players: ['a', 'b'], method: 'exact', failed: true, vEmpty: 0, vAll: 10, cost: 0, evaluations: 4, permutations: 0,
    shapley: { a: 2, b: 8 }, fixAlone: { a: 4, b: 10 }, leaveOneOut: { a: 0, b: 6 }, stopReason: 'exact', fixable: true,
    coalitions: [{ fixed: [], value: 0 }, { fixed: ['a'], value: 4 }, { fixed: ['b'], value: 10 }, { fixed: ['a', 'b'], value: 10 }],
  };
}

describe('the success level of the page\'s repairs', () => {
  it('is the command\'s rule: the level asked for, else the upper end of the range, else 1', () => {
    expect(successLevel(7, [0, 10])).toBe(7);
    expect(successLevel(undefined, [0, 10])).toBe(10);
    expect(successLevel(undefined, undefined)).toBe(1);
    expect(pageSuccess({}, { range: [0, 10] })).toBe(10);
    expect(pageSuccess({ repairs: { success: 4 } }, { range: [0, 10] })).toBe(4);
    expect(pageSuccess({}, null)).toBe(1);
  });

  it('the case view and the batch view read the same repairs off a table of a metric with range [0, 10]', () => {
    const r = tenPointFailure();
    const success = pageSuccess({}, { range: [0, 10] });
    expect(caseRepairs(r, success)).toEqual({ repairs: [{ fixed: ['b'], value: 10, cost: 1 }], complete: true });
    const consensus = pageConsensus([r], ['a', 'b'], success);
    expect(consensus.steps.map((s) => [s.step, s.cases])).toEqual([['a', 0], ['b', 1]]);
    // A lower level asked for in the settings counts {a} too, in both views alike.
    const low = pageSuccess({ repairs: { success: 4 } }, { range: [0, 10] });
    expect(caseRepairs(r, low)?.repairs.map((x) => x.fixed)).toEqual([['a'], ['b']]);
    expect(pageConsensus([r], ['a', 'b'], low).steps.map((s) => s.cases)).toEqual([1, 1]);
  });
});

describe('repairs read off tables as results keep arriving', () => {
  it('each result\'s table is searched once, however often the batch view asks for the consensus', () => {
    const r = tenPointFailure();
    const table = r.coalitions;
    let reads = 0;
    Object.defineProperty(r, 'coalitions', { enumerable: true, get: () => (reads++, table) });
    const success = pageSuccess({}, { range: [0, 10] });
    for (let flush = 0; flush < 3; flush++) expect(pageConsensus([r], ['a', 'b'], success).steps.map((s) => s.cases)).toEqual([0, 1]);
    expect(reads).toBe(1);
    // Another success level is another search.
    expect(caseRepairs(r, 4)?.repairs.map((x) => x.fixed)).toEqual([['a'], ['b']]);
    expect(reads).toBe(2);
  });
});
