import { describe, expect, it } from 'vitest';
import { failuresLabel, studyLabel, whenLabel } from './describe-summary.ts';

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

describe('studyLabel', () => {
  it('names the mode, the method and the case count, leaving out what an old summary lacks', () => {
    expect(studyLabel({ mode: 'posterior', method: 'mc', caseCount: 200 })).toBe('posterior · Monte Carlo · 200 cases');
    expect(studyLabel({ mode: 'recorded', method: 'auto', caseCount: 1 })).toBe('recorded · auto method · 1 case');
    expect(studyLabel({ caseCount: 3 })).toBe('3 cases');
  });
});
