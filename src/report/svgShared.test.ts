import { describe, expect, it } from 'vitest';
import { testResult } from '../engine/testing/results.ts';
import { STRIP_MAX_DOTS, stripCases, stripSvg } from './svgStrip.ts';
import { waterfallSvg } from './svgWaterfall.ts';

describe('the waterfall shared by the case view and the report', () => {
  const svg = waterfallSvg(0, 1, { planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, '<b>r</b>': 1 / 12 }, ['planner', 'retriever', 'writer', '<b>r</b>']);

  it('draws v(∅), one bar per step largest first with its signed value, and v(all)', () => {
    expect(svg).toContain('data-testid="case-waterfall"');
    expect(svg.match(/<rect class="bar pos"/g)).toHaveLength(4);
    const labels = [...svg.matchAll(/<text class="label"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(labels).toEqual(['as run, v(∅)', 'planner', 'retriever', 'writer', '&lt;b&gt;r&lt;/b&gt;', 'every fix, v(all)']);
    expect(svg).toContain('>+0.417<');
    expect(svg).toContain('>1.000<');
  });

  it('escapes step names and colours negative blame apart', () => {
    expect(svg).not.toContain('<b>');
    const negative = waterfallSvg(0, 1, { a: 1.5, b: -0.5 }, ['a', 'b']);
    expect(negative).toContain('<rect class="bar neg"');
    expect(negative).toContain('>−0.500<');
  });
});

describe('the strip plot shared by the batch view and the report', () => {
  const results = [
    testResult({ id: 'c1', players: ['a', 'b'], shapley: { a: 0.75, b: 0.25 } }),
    testResult({ id: 'c2', players: ['a', 'b'], shapley: { a: -0.25, b: 1.25 } }),
    testResult({ id: 'ok', players: ['a', 'b'], failed: false }),
    testResult({ id: 'err', players: ['a', 'b'], error: 'step a threw' }),
  ];

  it('draws one dot per analysed failure and step, signed, and nothing without failures', () => {
    const svg = stripSvg(results, ['a', 'b']);
    expect(svg.match(/<circle/g)).toHaveLength(4);
    expect(svg.match(/class="dot neg"/g)).toHaveLength(1);
    expect(svg.match(/class="dot pos"/g)).toHaveLength(3);
    expect(stripSvg([results[2], results[3], undefined], ['a', 'b'])).toBe('');
  });

  it(`draws every k-th case beyond ${STRIP_MAX_DOTS}`, () => {
    const many = Array.from({ length: 2 * STRIP_MAX_DOTS + 1 }, (_, i) => testResult({ id: `c${i}`, players: ['a'], shapley: { a: 1 } }));
    const { drawn, analysed, stride } = stripCases(many);
    expect([analysed, stride, drawn.length]).toEqual([2 * STRIP_MAX_DOTS + 1, 3, 401]);
    expect(stripSvg(many, ['a'])).toContain('every 3th case');
  });
});

describe('the signed batch bars shared by the batch view and the report', () => {
  const batch = {
    failures: 4, analyzed: 4, unfixable: 0, cost: 1,
    steps: [
      { step: 'plan', fixAloneRate: 0.25, meanShapley: 0.1, ci: [0.05, 0.15] as [number, number], share: 0.1, lastTouch: 1 },
      { step: 'route', fixAloneRate: 0, meanShapley: -0.3, ci: [-0.4, -0.2] as [number, number], share: -0.3, lastTouch: 0 },
      { step: 'write', fixAloneRate: 0.5, meanShapley: 0.2, ci: [0.1, 0.3] as [number, number], share: 0.2, lastTouch: 3 },
    ],
  };

  it('orders by size whatever the sign, colours by sign and labels each bar with its value', async () => {
    const { signedBarsSvg } = await import('./svgSignedBars.ts');
    const svg = signedBarsSvg(batch);
    expect([...svg.matchAll(/data-step="([^"]+)"/g)].map((m) => m[1])).toEqual(['route', 'write', 'plan']);
    expect([...svg.matchAll(/data-testid="bar-value">([^<]*)</g)].map((m) => m[1])).toEqual(['−0.300', '+0.200', '+0.100']);
    expect(svg.match(/class="bar neg"/g)).toHaveLength(1);
    expect(svg.match(/class="whisker"/g)).toHaveLength(3);
    expect(svg).not.toContain('bar alone');
    const withBaselines = signedBarsSvg(batch, true);
    expect(withBaselines.match(/class="bar alone"/g)).toHaveLength(3);
    expect(withBaselines).toContain('last to touch 75.0 % of failures');
    // Each baseline bar is labelled with its rate: fix alone, then last touch, per step in bar order.
    expect([...withBaselines.matchAll(/data-testid="baseline-value">([^<]*)</g)].map((m) => m[1])).toEqual(['0.0 %', '0.0 %', '50.0 %', '75.0 %', '25.0 %', '25.0 %']);
    // The panel's right edge leaves room past 100 % for its tick and a full bar's label.
    const width = Number(/viewBox="0 0 (\d+)/.exec(withBaselines)![1]);
    const hundred = [...withBaselines.matchAll(/<text class="tick" x="([\d.]+)"[^>]*>100 %</g)].map((m) => Number(m[1]));
    expect(hundred).toHaveLength(1);
    expect(width - hundred[0]).toBeGreaterThanOrEqual(40);
  });

  it('draws no fix-alone bar when no case computed it within its budget, and says so', async () => {
    const { signedBarsSvg } = await import('./svgSignedBars.ts');
    const unknown = signedBarsSvg({ ...batch, fixAloneKnown: 0 }, true);
    expect(unknown).not.toContain('class="bar alone"');
    expect(unknown.match(/class="bar touch"/g)).toHaveLength(3);
    expect([...unknown.matchAll(/data-testid="baseline-value">(?:<title>[^<]*<\/title>)?([^<]*)</g)].map((m) => m[1])).toEqual(['fix alone: not computed', '0.0 %', 'fix alone: not computed', '75.0 %', 'fix alone: not computed', '25.0 %']);
    expect(unknown).toContain('plan: fixing it alone not computed within the budget');
    // Known for some of the failures: drawn as usual.
    expect(signedBarsSvg({ ...batch, fixAloneKnown: 2 }, true).match(/class="bar alone"/g)).toHaveLength(3);
  });

  it('fits a given width with its text at full size (a phone), down to a narrowest plot, and is unchanged without one', async () => {
    const { signedBarsSvg } = await import('./svgSignedBars.ts');
    const widthOf = (svg: string) => Number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
    expect(widthOf(signedBarsSvg(batch))).toBe(606);
    const phone = signedBarsSvg(batch, false, 350);
    expect(widthOf(phone)).toBe(350);
    // The largest bar's value label starts inside the chart, with room for its text (56 px).
    const valueAt = Number(/<text class="value" x="([\d.]+)"/.exec(phone)![1]);
    expect(valueAt).toBeLessThanOrEqual(350 - 50);
    expect(widthOf(signedBarsSvg(batch, false, 2000))).toBe(606);
    expect(widthOf(signedBarsSvg(batch, false, 100))).toBe(120 + 56 + 10 + 120);
  });
});
