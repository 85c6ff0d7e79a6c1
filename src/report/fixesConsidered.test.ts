import { describe, expect, it } from 'vitest';
import { fixesConsidered } from './fixesConsidered.ts';
import { refundSession } from './fixtures/refundSession.ts';

describe('fixesConsidered', () => {
  it('lists every step with "default fix" (null) when nothing names the fixes', () => {
    expect(fixesConsidered(refundSession()).map((f) => [f.step, f.fix])).toEqual([
      ['planner', null], ['retriever', null], ['writer', null], ['reviewer', null],
    ]);
  });
  it('takes names from the fix choice, and the caller’s names over both', () => {
    const session = refundSession();
    session.settings.fixChoice = { writer: 'cite sources', constructor: 'x' };
    const fixes = fixesConsidered(session, [{ step: 'planner', fix: 'date constraint' }]);
    expect(fixes.map((f) => [f.step, f.fix])).toEqual([
      ['planner', 'date constraint'], ['retriever', null], ['writer', 'cite sources'], ['reviewer', null], ['constructor', 'x'],
    ]);
  });
  it('does not read inherited keys of the fix choice as fix names', () => {
    const session = refundSession();
    session.results[0].players = ['toString'];
    expect(fixesConsidered(session)).toEqual([{ step: 'toString', fix: null }]);
  });
});
