import { describe, expect, it } from 'vitest';
import { testResult } from '../engine/testing/results.ts';
import type { CaseResult } from '../engine/types.ts';
import { stepBaselines } from './stepBaselines.ts';
import { renderBaselines } from './sections/baselines.ts';
import { renderCaseDetail } from './sections/caseDetail.ts';
import { renderBatch } from './sections/batch.ts';
import { aggregateBatch } from '../engine/batch.ts';

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
      withFixAlone: 2,
      withLeaveOneOut: 2,
      steps: [
        { step: 'b', shapley: 0.25, fixAlone: 0.5, leaveOneOut: 0, lastTouch: 2 },
        { step: 'a', shapley: 0.75, fixAlone: 1, leaveOneOut: 0.5, lastTouch: 0 },
      ],
    });
  });

  it('averages a baseline a budget left out of some cases over the cases that have it; the report says so', () => {
    const results: CaseResult[] = [
      { ...base, method: 'mc' as const, id: '1', players: ['a', 'b'], failed: true, shapley: { a: 1, b: 0 }, fixAlone: { a: 1, b: 0 }, notComputed: ['leaveOneOut'] as const },
      { ...base, method: 'mc' as const, id: '2', players: ['a', 'b'], failed: true, shapley: { a: 0, b: 1 }, notComputed: ['fixAlone', 'leaveOneOut'] as const },
    ].map((r) => testResult({ ...r, notComputed: [...r.notComputed] }));
    const means = stepBaselines(results, ['a', 'b']);
    expect([means.analysed, means.withFixAlone, means.withLeaveOneOut]).toEqual([2, 1, 0]);
    expect(means.steps[0]).toEqual({ step: 'a', shapley: 0.5, fixAlone: 1, leaveOneOut: 0, lastTouch: 0 });
    const section = renderBaselines(results, ['a', 'b']);
    expect(section).toContain('Fix-alone: over the 1 whose budget reached it (not computed within the budget in the others).');
    expect(section).toContain('Leave-one-out: not computed within the budget');
    expect(section.match(/<td class="num muted" data-v="0">not computed within the budget<\/td>/g)).toHaveLength(2);
    const detail = renderCaseDetail(results[1], 0, true, 6);
    expect(detail).toContain('<dt>Step cost</dt><dd>1 of a budget of 6</dd>');
    expect(detail).toContain('<dt>Not computed within the budget</dt><dd>fix-alone, leave-one-out</dd>');
    expect(detail).toContain('Fix-alone and leave-one-out: not computed within the budget (—).');
  });

  it('the report\'s batch table says over how many failures fixing alone is, or that the budget left it out', () => {
    const results = [testResult({ id: '1', method: 'mc', players: ['a', 'b'], shapley: { a: 1, b: 0 }, notComputed: ['fixAlone', 'leaveOneOut'] })];
    const batch = aggregateBatch(results, { delta: 0.05, bound: 'bernstein' });
    const none = renderBatch(batch, 0.05, results);
    expect(none).toContain('Fixing alone resolves: not computed within the budget (the Monte Carlo budget was spent first).');
    expect(none.match(/<td class="num muted" data-v="0">not computed within the budget<\/td>/g)).toHaveLength(2);
    const some = renderBatch({ ...batch, analyzed: 3, fixAloneKnown: 2 }, 0.05, results);
    expect(some).toContain('Fixing alone resolves: over the 2 analysed failures whose budget reached it');
    expect(renderBatch(aggregateBatch([testResult({ id: '2', players: ['a', 'b'] })], { delta: 0.05, bound: 'bernstein' }), 0.05)).not.toContain('Fixing alone resolves:');
  });
});
