import { describe, expect, it } from 'vitest';
import { summarizeDefinition } from './definition-summary.ts';
import type { PipelineDef } from './types.ts';

const step = { name: 'a', inputs: ['q'], cost: 2, run: () => 1, fixes: [{ name: 'better', cost: 3, run: () => 1 }, { name: 'oracle', cost: 1, run: () => 1 }] };

describe('summarizeDefinition', () => {
  it('lists each step with its fix names, the own cases, and fills in the default threshold and range', () => {
    const def: PipelineDef = { name: 'p', steps: [step], metric: () => 1, cases: [{ id: 'c1', inputs: { q: 1 } }] };
    expect(summarizeDefinition(def)).toEqual({ name: 'p', steps: [{ name: 'a', inputs: ['q'], cost: 2, fixes: ['better', 'oracle'] }], cases: [{ id: 'c1', inputs: { q: 1 } }], threshold: 1, range: [0, 1] });
  });

  it('carries the definition’s own range and threshold, which the batch intervals and the fix-alone rate need', () => {
    const summary = summarizeDefinition({ name: 'p', steps: [step], metric: () => 1, range: [0, 10], threshold: 7 });
    expect(summary.range).toEqual([0, 10]);
    expect(summary.threshold).toBe(7);
  });
});
