import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/report/format.ts';
import { readDoneLine } from './done-line.ts';

describe('readDoneLine', () => {
  it('reads the cases and step cost of a finished run, grouped as the page shows them', () => {
    // As ProgressBar.svelte words it, with the page's own number format.
    expect(readDoneLine(`Done: ${formatCount(400)} cases · step cost ${formatCount(33179)}`)).toEqual({ cases: 400, cost: 33179 });
    expect(readDoneLine(`Done: 1 case · step cost ${formatCount(22)}\n`)).toEqual({ cases: 1, cost: 22 });
    expect(readDoneLine(`Done: ${formatCount(12000)} cases · step cost ${formatCount(1234567)}`)).toEqual({ cases: 12000, cost: 1234567 });
  });

  it('refuses a run in which a case could not be analysed, or one not done', () => {
    expect(() => readDoneLine('Done: 200 cases (3 could not be analysed) · step cost 6 000')).toThrow('not the progress line of a run done with every case analysed');
    expect(() => readDoneLine('Analysing: 20 of 200 cases · step cost 600 · 3 s left')).toThrow('"Analysing: 20 of 200 cases');
  });
});
