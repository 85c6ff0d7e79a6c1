import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import { analyzeSourceCase } from './analyze-source.ts';
import { oneStepSource } from './testing/one-step.ts';

// A zone far from UTC, set before the first definition is compiled (lockdown happens then).
process.env.TZ = 'Pacific/Kiritimati';

function probe(expression: string): unknown {
  const result = analyzeSourceCase(oneStepSource(`return ${expression};`), { id: 'c1', inputs: { question: 'q', doc: null } }, DEFAULT_SETTINGS);
  return result.error ?? result.factualOutputs?.probe;
}

describe('definitions see UTC, whatever the machine\'s time zone', () => {
  it.each([
    ['local-time getters', 'new Date(Date.UTC(2026, 0, 1, 23, 30)).getHours() + ":" + new Date(Date.UTC(2026, 0, 1, 23, 30)).getDate()', '23:1'],
    ['the zone offset', 'new Date(0).getTimezoneOffset()', 0],
    ['a date given by parts', 'new Date(2026, 0, 1, 10).toISOString()', '2026-01-01T10:00:00.000Z'],
    ['a date string without a zone', 'new Date("2026-01-01T10:00").toISOString()', '2026-01-01T10:00:00.000Z'],
    ['Date.parse without a zone', 'Date.parse("2026-01-01T10:00")', Date.UTC(2026, 0, 1, 10)],
    ['a date string with a zone', 'new Date("2026-01-01T10:00+02:00").toISOString()', '2026-01-01T08:00:00.000Z'],
    ['local setters', '(() => { const d = new Date(0); d.setHours(5); return d.toISOString(); })()', '1970-01-01T05:00:00.000Z'],
    ['toString', 'new Date(0).toString()', 'Thu, 01 Jan 1970 00:00:00 GMT +0000 (UTC)'],
    // SES makes toLocaleString print as toString does.
    ['toLocaleString', 'new Date(0).toLocaleString("en-GB")', 'Thu, 01 Jan 1970 00:00:00 GMT +0000 (UTC)'],
  ])('%s', (_, expression, expected) => {
    expect(probe(expression)).toEqual(expected);
  });

  it('the clock stays unavailable', () => {
    expect(probe('new Date().getTime()')).toMatch(/the clock .* is not available/);
  });
});
