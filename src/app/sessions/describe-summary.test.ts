import { describe, expect, it } from 'vitest';
import { failuresLabel, whenLabel } from './describe-summary.ts';

describe('failuresLabel', () => {
  it('counts failures, and says how far an unfinished analysis got', () => {
    expect(failuresLabel({ failuresAnalysed: 1, casesAnalysed: 3, caseCount: 3 })).toBe('1 failure analysed');
    expect(failuresLabel({ failuresAnalysed: 0, casesAnalysed: 0, caseCount: 0 })).toBe('0 failures analysed');
    expect(failuresLabel({ failuresAnalysed: 4, casesAnalysed: 5, caseCount: 9 })).toBe('4 failures analysed (5 of 9 cases done)');
  });
});

describe('whenLabel', () => {
  it('formats a valid time and passes anything else through', () => {
    expect(whenLabel('2026-03-04T05:06:07.000Z', 'en-GB')).toContain('2026');
    expect(whenLabel('not a date')).toBe('not a date');
  });
});
