import { describe, expect, it } from 'vitest';
import { NO_SHARED_STEP, renderComparison, pointsText, rankText } from './sections/compare.ts';
import { COMPARISON } from './fixtures/comparison.ts';


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

  it('says the studies share no step instead of drawing an empty chart', () => {
    expect(html).toContain('<svg');
    expect(html).not.toContain(NO_SHARED_STEP.slice(0, 40));
    const apart = renderComparison({ against: 'other', comparison: { ...COMPARISON, steps: COMPARISON.steps.map((s) => ({ ...s, shapleyChange: null, ci: null })) } });
    expect(apart).not.toContain('<svg');
    expect(apart).toContain('The two studies have no step in common (other pipelines?)');
  });
});
