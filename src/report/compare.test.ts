import { describe, expect, it } from 'vitest';
import { renderComparison, pointsText, rankText } from './sections/compare.ts';
import type { StudyComparison } from '../engine/compare-studies.ts';

const COMPARISON: StudyComparison = {
  delta: 0.05,
  paired: false,
  before: { failures: 4, analyzed: 4 },
  after: { failures: 3, analyzed: 3 },
  shared: 2,
  steps: [
    {
      step: '<b>plan</b>',
      before: { meanShapley: 0.5, ci: [0.4, 0.6], fixAloneRate: 0.25, rank: 2 },
      after: { meanShapley: 0.75, ci: [0.7, 0.8], fixAloneRate: 0.5, rank: 1 },
      shapleyChange: 0.25,
      ci: [0.1, 0.4],
      fixAloneChange: 0.25,
      rankChange: 1,
    },
    { step: 'gone', before: { meanShapley: 0.1, ci: [0, 0.2], fixAloneRate: 0, rank: 3 }, after: null, shapleyChange: null, ci: null, fixAloneChange: null, rankChange: null },
  ],
  cases: [
    { id: 'q<1>', movement: 0.5, step: '<b>plan</b>', before: 0.25, after: 0.75 },
    { id: 'q2', movement: 0, step: '<b>plan</b>', before: 0.5, after: 0.5 },
  ],
};

describe('the report’s comparison section', () => {
  const html = renderComparison({ against: 'before <script>', comparison: COMPARISON });

  it('escapes every name from the sessions', () => {
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Compared with “before &lt;script&gt;”');
  });

  it('shows the change, its interval, the fix-alone change in points and the rank move', () => {
    for (const part of ['+0.250', '[+0.100, +0.400]', '+25.0 pp', '2 → 1 ↑1', 'unpaired (the failures differ)']) expect(html).toContain(part);
  });

  it('counts the analysed failures in the words of their number', () => {
    expect(html).toContain('4 analysed failures there, 3 here, 2 in both');
    const one = renderComparison({ against: 'b', comparison: { ...COMPARISON, before: { failures: 1, analyzed: 1 } } });
    expect(one).toContain('1 analysed failure there, 3 here');
  });

  it('lists only the cases that moved, and a step on one side only without a change', () => {
    expect(html).toContain('q&lt;1&gt;');
    expect(html).not.toContain('>q2<');
    expect(html).toMatch(/<td>gone<\/td><td class="num">\+0\.100<\/td><td class="num">—<\/td>/);
    expect([rankText(-2), rankText(0), rankText(null), pointsText(-0.125)]).toEqual(['↓2', '=', '—', '−12.5 pp']);
  });
});
