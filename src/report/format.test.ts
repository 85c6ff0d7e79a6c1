import { describe, expect, it } from 'vitest';
import { formatCount, formatCounted, formatDate, formatInterval, formatNumber, formatOutput, formatPercent, formatSigned } from './format.ts';

describe('formatting', () => {
  it('shows blame with three decimals and a sign, zero without one', () => {
    expect(formatSigned(5 / 12)).toBe('+0.417');
    expect(formatSigned(-1 / 12)).toBe('\u22120.083');
    expect(formatSigned(-0.0001)).toBe('0.000');
    expect(formatSigned(undefined)).toBe('—');
    expect(formatSigned(Infinity)).toBe('+∞');
  });
  it('shows plain values, rates, intervals and counts', () => {
    expect(formatNumber(1)).toBe('1.000');
    expect(formatNumber(-0.5)).toBe('\u22120.500');
    expect(formatPercent(0.26)).toBe('26.0 %');
    expect(formatInterval([0.269, 0.3691])).toBe('[+0.269, +0.369]');
    expect(formatInterval([-0.25, 0.3691], (end) => formatNumber(end))).toBe('[\u22120.250, 0.369]');
    expect(formatInterval([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY])).toBe('[\u2212∞, +∞]');
    expect(formatCount(6017)).toBe('6\u2009017');
    expect(formatCount(Infinity)).toBe('∞');
  });
  it('shows dates in UTC without locale and leaves unparseable text alone', () => {
    expect(formatDate('2026-03-02T09:31:00.000Z')).toBe('2026-03-02 09:31 UTC');
    expect(formatDate('yesterday')).toBe('yesterday');
  });
  it('shows outputs: strings as they are, other values as JSON', () => {
    expect(formatOutput('ok')).toBe('ok');
    expect(formatOutput('')).toBe('""');
    expect(formatOutput(undefined)).toBe('—');
    expect(formatOutput({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(formatOutput(cycle)).toBe('[object that cannot be shown as JSON]');
  });

  it('counts with the noun in the number it takes', () => {
    expect(formatCounted(1, 'analysed failure')).toBe('1 analysed failure');
    expect(formatCounted(2, 'analysed failure')).toBe('2 analysed failures');
    expect(formatCounted(0, 'case')).toBe('0 cases');
    expect(formatCounted(12_000, 'reply', 'replies')).toBe('12\u2009000 replies');
  });
});
