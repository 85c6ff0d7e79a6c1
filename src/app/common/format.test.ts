import { describe, expect, it } from 'vitest';
import { formatCount, formatNumber, formatPercent } from '../../report/format.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { count, counted, duration, fixed3, interval, percent, percentOf, small, tickLabel, whole } from './format.ts';

describe('view number formats', () => {
  it('prints Shapley values with three decimals, a true minus and no negative zero', () => {
    const shown: [number | null | undefined, string][] = [
      [5 / 12, '0.417'], [-1 / 12, '\u22120.083'], [-0.0001, '0.000'],
      [undefined, '—'], [null, '—'], [Number.NaN, '—'], [Number.NEGATIVE_INFINITY, '\u2212∞'],
    ];
    for (const [value, text] of shown) expect(fixed3(value), String(value)).toBe(text);
  });

  it('prints rates, intervals, counts and durations', () => {
    expect(percent(0.26)).toBe('26.0 %');
    expect(percent(-0.005)).toBe('\u22120.5 %');
    expect(interval([0.269, 0.369])).toBe('[0.269, 0.369]');
    expect(interval([-0.1, Number.POSITIVE_INFINITY])).toBe('[\u22120.100, ∞]');
    expect(interval(undefined)).toBe('—');
    expect(count(1_234_567)).toBe('1\u2009234\u2009567');
    expect(count(-1500)).toBe('\u22121\u2009500');
    expect([0.25, -0.5, 0, 10, -0.0001].map(tickLabel)).toEqual(['0.25', '\u22120.5', '0', '10', '0']);
    expect(duration(null)).toBe('estimating…');
    expect(duration(42.4)).toBe('42 s');
    expect(duration(600)).toBe('10 min');
  });

  it('prints a number exactly as the exported report does', () => {
    for (const value of [5 / 12, -1 / 12, 0, -0.0004, 1234.5678, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(fixed3(value)).toBe(formatNumber(value));
      expect(percent(value)).toBe(formatPercent(value));
    }
    for (const value of [0, 999, 1000, -12_345_678, Number.POSITIVE_INFINITY]) expect(count(value)).toBe(formatCount(value));
  });

  it('names a count with its noun, singular for one', () => {
    expect(counted(1, 'analysed failure')).toBe('1 analysed failure');
    expect(counted(0, 'analysed failure')).toBe('0 analysed failures');
    expect(counted(12345, 'failure')).toBe(`12${'\u2009'}345 failures`);
    expect(counted(2, 'reply', 'replies')).toBe('2 replies');
  });

  it('prints percentages, whole numbers and small probabilities with the one minus sign (U+2212)', () => {
    expect(percentOf(0.26)).toBe('26.0 %');
    expect(percentOf(-0.35, 0, '%')).toBe('\u221235%');
    expect(percentOf(-0.001, 0, '%')).toBe('0%');
    expect(percentOf(Number.NaN)).toBe('—');
    expect(whole(-4.6)).toBe('\u22125');
    expect(whole(-0.4)).toBe('0');
    expect(whole(12)).toBe('12');
    expect(small(0.25)).toBe('0.250');
    expect(small(0.0003)).toBe('3.0e\u22124');
    expect(small(0)).toBe('0.000');
  });

  it("is how components print numbers: no .svelte file formats one itself (toFixed, toExponential, toLocaleString)", () => {
    const app = join(import.meta.dirname, '..');
    const files = (readdirSync(app, { recursive: true }) as string[]).filter((f) => f.endsWith('.svelte'));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((f) => (/\.(toFixed|toExponential|toLocaleString)\(/.test(readFileSync(join(app, f), 'utf8')) ? [f] : []));
    expect(offenders, 'use src/app/common/format.ts (U+2212 minus, thin-space groups)').toEqual([]);
  });
});
