import { describe, expect, it } from 'vitest';
import type { DefinitionSummary } from '../analysis/protocol.ts';
import { fixesUsed } from './fixes-used.ts';

const summary: DefinitionSummary = {
  name: 'p',
  threshold: 1,
  cases: [],
  steps: [
    { name: 'retriever', inputs: [], cost: 1, fixes: ['drop superseded', 'newest on ties'] },
    { name: 'constructor', inputs: [], cost: 1, fixes: ['rebuild'] },
    { name: 'logger', inputs: [], cost: 1, fixes: [] },
  ],
};

describe('fixesUsed', () => {
  it('names each step’s first fix by default, in pipeline order, and null for a step without fixes', () => {
    expect(fixesUsed(summary, undefined)).toEqual([
      { step: 'retriever', fix: 'drop superseded' },
      { step: 'constructor', fix: 'rebuild' },
      { step: 'logger', fix: null },
    ]);
  });

  it('names the fix chosen in the settings, and ignores inherited properties of the choice object', () => {
    expect(fixesUsed(summary, { retriever: 'newest on ties' })[0]).toEqual({ step: 'retriever', fix: 'newest on ties' });
    expect(fixesUsed(summary, {})[1]).toEqual({ step: 'constructor', fix: 'rebuild' });
  });
});
