import { describe, expect, it } from 'vitest';
import type { BatchResult, BatchStep } from '../../engine/types.ts';
import { batchHeadline, byMagnitude } from './batch-order.ts';

const step = (name: string, meanShapley: number, fixAloneRate: number): BatchStep => ({ step: name, meanShapley, ci: [meanShapley - 0.04, meanShapley + 0.04], fixAloneRate, share: 0, lastTouch: 0 });

describe('batch at a glance', () => {
  it('orders steps by the size of their blame, negative blame included, unknown values last in pipeline order', () => {
    const ordered = byMagnitude([step('a', 0.1, 0), step('b', -0.5, 0), step('c', Number.NaN, 0), step('d', 0.31, 0), step('e', Number.NaN, 0)]);
    expect(ordered.map((s) => s.step)).toEqual(['b', 'd', 'a', 'c', 'e']);
  });

  it('names the most blamed step with its interval, and the best single fix', () => {
    const batch: BatchResult = { failures: 10, analyzed: 10, unfixable: 0, cost: 1, steps: [step('plan', 0.1, 0.2), step('retrieve', 0.31, 0.48)] };
    expect(batchHeadline(batch)).toBe('Most blamed: retrieve, 0.310 [0.270, 0.350]; fixing it alone resolves 48.0 % of failures');
    batch.steps[0].fixAloneRate = 0.6;
    expect(batchHeadline(batch)).toBe('Most blamed: retrieve, 0.310 [0.270, 0.350]; fixing plan alone resolves 60.0 % of failures');
    expect(batchHeadline({ ...batch, analyzed: 0 })).toBeNull();
  });
});
