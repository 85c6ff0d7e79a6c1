import { describe, expect, it } from 'vitest';
import { chosenFix, fixesUsed } from './fix-choice.ts';

const summary = {
  steps: [
    { name: 'retriever', inputs: [], cost: 1, fixes: ['drop superseded', 'newest on ties'] },
    { name: 'constructor', inputs: [], cost: 1, fixes: ['rebuild'] },
    { name: 'logger', inputs: [], cost: 1, fixes: [] },
  ],
} as const;

describe('fixesUsed', () => {
  it('names each step’s first fix by default, in pipeline order, and null for a step without fixes', () => {
    expect(fixesUsed(summary.steps, undefined)).toEqual([
      { step: 'retriever', fix: 'drop superseded' },
      { step: 'constructor', fix: 'rebuild' },
      { step: 'logger', fix: null },
    ]);
  });

  it('names the fix chosen in the settings, and ignores inherited properties of the choice object', () => {
    expect(fixesUsed(summary.steps, { retriever: 'newest on ties' })[0]).toEqual({ step: 'retriever', fix: 'newest on ties' });
    expect(fixesUsed(summary.steps, {})[1]).toEqual({ step: 'constructor', fix: 'rebuild' });
    expect(fixesUsed(summary.steps, { constructor: 'rebuild' })[1]).toEqual({ step: 'constructor', fix: 'rebuild' });
  });

  it('reads a choice only from the object’s own string properties', () => {
    expect(chosenFix({}, 'constructor')).toBeUndefined();
    expect(chosenFix({}, 'toString')).toBeUndefined();
    expect(chosenFix(undefined, 'retriever')).toBeUndefined();
    expect(chosenFix({ __proto__: { retriever: 'x' } } as never, 'retriever')).toBeUndefined();
  });
});
