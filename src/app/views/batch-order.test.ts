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

describe('one headline for the workbench and the report', () => {
  it('a tie at the top names every tied step (the refund demo: planner and retriever, 5/12 each)', () => {
    const batch: BatchResult = { failures: 1, analyzed: 1, unfixable: 0, cost: 22, steps: [step('planner', 5 / 12, 1), step('retriever', 5 / 12, 1), step('writer', 1 / 12, 0), step('reviewer', 1 / 12, 0)] };
    expect(batchHeadline(batch)).toBe('Most blamed: planner and retriever, 0.417 each; fixing planner alone resolves 100.0 % of failures');
  });

  it('names no step "most blamed" when none has positive blame (a replay whose fixes repair nothing: 0.000 each)', () => {
    const none: BatchResult = { failures: 1, analyzed: 1, unfixable: 1, cost: 14, steps: [step('2 Planner', 0, 0), step('4 Calculator', 0, 0), step('7 Reporter', 0, 0)] };
    expect(batchHeadline(none)).toBe('No step is blamed: no combination of the fixes on offer repairs the analysed failure');
    expect(batchHeadline({ ...none, failures: 3, analyzed: 3, unfixable: 3 })).toBe('No step is blamed: no combination of the fixes on offer repairs any of the 3 analysed failures');
    const worse: BatchResult = { failures: 4, analyzed: 4, unfixable: 1, cost: 9, steps: [step('a', -0.25, 0), step('b', 0, 0)] };
    expect(batchHeadline(worse)).toBe("No step is blamed: no step's mean Shapley is above 0.000 (on average no fix repairs more than it breaks)");
  });

  it('counts failures in the singular and plural, and says how far a run is', async () => {
    const { failureCount } = await import('../../report/headline.ts');
    expect(failureCount(1)).toBe('1 failure');
    expect(failureCount(2)).toBe('2 failures');
    expect(failureCount(96, { done: 120, total: 400 })).toBe('96 failures so far (120 of 400 cases analysed)');
    expect(failureCount(400, { done: 400, total: 400 })).toBe('400 failures');
  });
});
