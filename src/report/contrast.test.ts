import { describe, expect, it } from 'vitest';
import { renderReport } from './renderReport.ts';
import { renderContrast } from './sections/contrast.ts';
import { sampleContrast } from '../session/testing/sample-contrast.ts';
import { session } from '../session/testing/sample-session.ts';

describe('report: single-step contrast and point of commitment', () => {
  it('is absent when the session has no contrast', () => {
    expect(renderContrast(undefined)).toBe('');
    expect(renderReport(session())).not.toContain('id="contrast"');
  });

  it('shows per turn the two failure rates, the difference with its interval, and marks the point of commitment', () => {
    const html = renderContrast(sampleContrast());
    expect(html).toContain('Point of commitment: <strong>step 2 Calculator</strong> (turn 1)');
    const rows = [...html.matchAll(/<tr[^>]*><td class="num" data-v="(\d+)">.*?<\/tr>/g)].map((m) => m[0]);
    expect(rows).toHaveLength(3);
    // The Calculator's row: never fails regenerated, always kept, difference -100 % [-100 %, -86 %].
    expect(rows[1]).toContain('0 % <span class="muted">[0 %, 10 %] of 35</span>');
    expect(rows[1]).toContain('100 % <span class="muted">[90 %, 100 %] of 35</span>');
    expect(rows[1]).toContain('−100 % <span class="muted">[−100 %, −86 %]</span>');
    expect(rows[1]).toContain('data-testid="commitment-mark"');
    expect(rows[0]).not.toContain('commitment-mark');
    expect(rows[2]).not.toContain('commitment-mark');
    // One chart row per model turn, two arms each (and the two of the legend), and the commitment labelled.
    expect(html.match(/<circle /g)).toHaveLength(6 + 2);
    expect(html).toContain('◆ commitment');
  });

  it('says when no prefix commits, and escapes names', () => {
    const c = sampleContrast();
    c.runs[0] = { ...c.runs[0], commitment: null, errors: 2, contrast: c.runs[0].contrast.map((r) => ({ ...r, agent: '<b>x</b>' })) };
    const html = renderContrast({ ...c, replays: 10 });
    expect(html).toContain('No point of commitment');
    expect(html).toContain('fewer than 35 replays per arm can never commit');
    expect(html).toContain('2 contrast replays ended in an error');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('sits beside the Shapley ranking: right after the batch section of the report', () => {
    const html = renderReport(session({ contrast: sampleContrast() }));
    const batch = html.indexOf('id="batch"');
    const contrast = html.indexOf('id="contrast"');
    expect(batch).toBeGreaterThan(0);
    expect(contrast).toBeGreaterThan(batch);
    expect(html.indexOf('<section', batch + 1)).toBe(html.lastIndexOf('<section', contrast));
  });
});
