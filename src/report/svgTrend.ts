import type { Trends } from '../engine/trends.ts';
import { clipText, escapeHtml } from './escape.ts';
import { SERIES_CLASSES, seriesLegend, svgHead, valueGrid, type PlotFrame } from './svgFrame.ts';
import { linearScale, px } from './svgScale.ts';

const FRAME: PlotFrame = { width: 720, height: 280, left: 48, right: 16, top: 12, bottom: 56 };
const { width: WIDTH, height: HEIGHT, left: LEFT, right: RIGHT, top: TOP, bottom: BOTTOM } = FRAME;
/** Period labels on the x axis: at most this many, evenly spaced. */
const X_LABELS = 8;

const pct = (x: number) => `${Math.round(x * 100)} %`;

/**
 * Trends as inline SVG: per step its share of the failure blame in each period, a line with its
 * interval as a band, a gap where the step has no point; a marked change is a ring on the later
 * period's point. The y axis is the share, from 0 to 100 % (further when an interval reaches out).
 */
export function trendSvg(trends: Trends, title: string): string {
  const n = trends.periods.length;
  if (n === 0) return '';
  const xOf = (k: number) => (n === 1 ? (LEFT + WIDTH - RIGHT) / 2 : LEFT + (k / (n - 1)) * (WIDTH - LEFT - RIGHT));
  const ends = trends.steps.flatMap((s) => s.points.flatMap((p) => (p ? [p.ci[0], p.ci[1]] : []))).filter(Number.isFinite);
  const scale = linearScale(Math.min(0, ...ends), Math.max(1, ...ends), HEIGHT - BOTTOM, TOP);
  const y = (v: number) => px(scale.toPixel(v));
  const parts: string[] = [];
  parts.push(...svgHead('chart trend', WIDTH, HEIGHT, title), ...valueGrid(scale, FRAME, pct));
  const stride = Math.max(1, Math.ceil(n / X_LABELS));
  trends.periods.forEach((p, k) => {
    if (k % stride !== 0 && k !== n - 1) return;
    parts.push(`<text class="tick" x="${px(xOf(k))}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${escapeHtml(clipText(p.key.replace(/^[vt]:/, ''), 24))}</text>`);
  });
  parts.push(`<text class="tick" x="${px((LEFT + WIDTH - RIGHT) / 2)}" y="${HEIGHT - 8}" text-anchor="middle">${escapeHtml(`share of the failure blame, by ${trends.grouping}`)}</text>`);
  trends.steps.forEach((step, i) => {
    const cls = `s${i % SERIES_CLASSES}`;
    parts.push(`<g><title>${escapeHtml(clipText(step.step, 200))}</title>`);
    // One band and one line per run of consecutive periods with a point.
    let run: number[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const upper = run.map((k) => `${px(xOf(k))},${y(step.points[k]!.ci[1])}`);
      const lower = run.map((k) => `${px(xOf(k))},${y(step.points[k]!.ci[0])}`).reverse();
      parts.push(`<polygon class="band ${cls}" points="${[...upper, ...lower].join(' ')}"/>`);
      if (run.length > 1) parts.push(`<polyline class="series ${cls}" points="${run.map((k) => `${px(xOf(k))},${y(step.points[k]!.share)}`).join(' ')}"/>`);
      run = [];
    };
    step.points.forEach((p, k) => (p ? run.push(k) : flush()));
    flush();
    const marked = new Set(step.changes.filter((c) => c.marked).map((c) => c.to));
    step.points.forEach((p, k) => {
      if (!p) return;
      const period = trends.periods[k];
      const label = `${clipText(step.step, 200)}, ${period.label}: ${pct(p.share)} [${Math.round(p.ci[0] * 100)}, ${Math.round(p.ci[1] * 100)}] of ${p.analyzed} failures${marked.has(period.key) ? ' (changed)' : ''}`;
      parts.push(`<circle class="series-fill ${cls}${marked.has(period.key) ? ' marked' : ''}" cx="${px(xOf(k))}" cy="${y(p.share)}" r="${marked.has(period.key) ? 5 : 3}"><title>${escapeHtml(label)}</title></circle>`);
    });
    parts.push(`</g>`);
  });
  parts.push(`</svg>`);
  const legend = seriesLegend(trends.steps.map((s) => s.step), (step) => (trends.drifting.includes(step) ? ' (drifts)' : ''));
  return `<figure class="trend-figure">${parts.join('')}<figcaption>${legend}</figcaption></figure>`;
}
