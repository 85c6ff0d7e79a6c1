import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../engine/types.ts';
import { formatBatch } from './tables.ts';

const batch: BatchResult = { failures: 4, analyzed: 4, unfixable: 1, cost: 40, steps: [{ step: 'plan', fixAloneRate: 0.5, meanFixAlone: 0.5, meanShapley: 0.4, ci: [0.2, 0.6], share: 1, lastTouch: 1 }] };

describe('the batch head line', () => {
  it('words the unfixable count for the mode: every world in prior and posterior modes', () => {
    expect(formatBatch(batch, 5).split('\n')[0]).toBe('5 cases, 4 failures, 4 analysed, 1 not fixable by any combination of fixes; cost 40');
    expect(formatBatch(batch, 5, undefined, 'posterior').split('\n')[0]).toBe('5 cases, 4 failures, 4 analysed, 1 where no combination of fixes succeeds in every world; cost 40');
  });
});
