import { describe, expect, it } from 'vitest';
import { barChartSvg } from './svgBars.ts';
import { convergenceSvg } from './svgConvergence.ts';
import { linearScale } from './svgScale.ts';

describe('linearScale', () => {
  it('widens the domain to nice ticks that include zero', () => {
    const scale = linearScale(0, 5 / 12, 0, 100);
    expect(scale.ticks).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(scale.toPixel(0.25)).toBeCloseTo(50);
  });
  it('handles negative ranges and a degenerate domain', () => {
    expect(linearScale(-0.3, 0.55, 0, 1).ticks).toEqual([-0.4, -0.2, 0, 0.2, 0.4, 0.6]);
    expect(linearScale(0, 0, 0, 1).domain).toEqual([0, 1]);
  });
});

describe('barChartSvg', () => {
  it('draws a bar from zero, a whisker across the interval, and colours by sign', () => {
    const svg = barChartSvg(
      [
        { label: 'a', bars: [{ value: 0.5, ci: [0.25, 0.75] }] },
        { label: 'b', bars: [{ value: -0.25 }] },
      ],
      { title: 'test' },
    );
    // Nice domain [-0.4, 0.8] on pixels [170, 644], 395 px per unit: zero at 328, 0.5 at 525.5,
    // 0.25 at 426.75, 0.75 at 624.25 (624.2499… in binary, so 624.2), -0.25 at 229.25 (rounded to 0.1).
    expect(svg).toContain('<rect class="bar pos" x="328" y="10" width="197.5"');
    expect(svg).toContain('d="M426.8 17H624.2M426.8 12V22M624.2 12V22"');
    expect(svg).toContain('<rect class="bar neg" x="229.3" y="44" width="98.8"');
    expect(svg).not.toMatch(/style=|<script|xmlns/);
  });
});

describe('convergenceSvg', () => {
  it('plots each step with its band on a log axis for geometric checkpoints, with a legend', () => {
    const svg = convergenceSvg(
      [
        { permutations: 8, cost: 8, values: [0.5, 0], ci: [[0, 1], [-0.5, 0.5]] },
        { permutations: 64, cost: 64, values: [0.6, 0.1], ci: [[0.4, 0.8], [-0.1, 0.3]] },
      ],
      ['x', 'y'],
      'conv',
    );
    expect(svg.match(/<polyline class="series s\d"/g)).toHaveLength(2);
    expect(svg.match(/<polygon class="band s\d"/g)).toHaveLength(2);
    expect(svg).toContain('permutations (log scale)');
    expect(svg).toContain('<li><svg class="swatch"');
  });
  it('draws nothing without checkpoints', () => {
    expect(convergenceSvg([], ['x'], 'conv')).toBe('');
  });
});
