import type { CaseResult } from '../engine/types.ts';
import { clipText, escapeHtml } from './escape.ts';
import { formatCount, formatSigned } from './format.ts';
import { linearScale, px } from './svgScale.ts';
import { SERIES_CLASSES, seriesLegend, svgHead, valueGrid, type PlotFrame } from './svgFrame.ts';

type History = NonNullable<CaseResult['history']>;

const FRAME: PlotFrame = { width: 720, height: 260, left: 56, right: 16, top: 12, bottom: 40 };
const { width: WIDTH, height: HEIGHT, left: LEFT, right: RIGHT, top: TOP, bottom: BOTTOM } = FRAME;

/**
 * Monte Carlo convergence as inline SVG: each step's running Shapley estimate against the number of
 * permutations, with its simultaneous confidence band, at every checkpoint the estimator recorded.
 * The checkpoints follow a geometric schedule, so the x axis is logarithmic when they span enough.
 * Returns the chart and an HTML legend (colour swatches are SVG too, so no inline style is needed).
 */
export function convergenceSvg(history: History, players: readonly string[], title: string): string {
  const points = history.filter((h) => Number.isFinite(h.permutations) && h.permutations > 0);
  if (points.length === 0) return '';
  const first = points[0].permutations;
  const last = points[points.length - 1].permutations;
  const logX = last / first >= 4;
  const xOf = (t: number) => {
    if (last === first) return (LEFT + WIDTH - RIGHT) / 2;
    const f = logX ? Math.log(t / first) / Math.log(last / first) : (t - first) / (last - first);
    return LEFT + f * (WIDTH - LEFT - RIGHT);
  };
  const ys = points.flatMap((h) => [...h.values, ...h.ci.flat()]).filter(Number.isFinite);
  const scale = linearScale(Math.min(...ys), Math.max(...ys), HEIGHT - BOTTOM, TOP);
  const parts: string[] = [];
  parts.push(...svgHead('chart convergence', WIDTH, HEIGHT, title), ...valueGrid(scale, FRAME, (tick) => formatSigned(tick, 2)));
  for (const t of xTicks(first, last, logX)) {
    parts.push(`<text class="tick" x="${px(xOf(t))}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${escapeHtml(formatCount(t))}</text>`);
  }
  parts.push(`<text class="tick" x="${px((LEFT + WIDTH - RIGHT) / 2)}" y="${HEIGHT - 6}" text-anchor="middle">permutations${logX ? ' (log scale)' : ''}</text>`);
  if (scale.domain[0] < 0 && scale.domain[1] > 0) {
    const y = px(scale.toPixel(0));
    parts.push(`<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y}" y2="${y}"/>`);
  }
  players.forEach((player, i) => {
    const cls = `s${i % SERIES_CLASSES}`;
    const upper = points.map((h) => `${px(xOf(h.permutations))},${px(scale.toPixel(h.ci[i]?.[1] ?? h.values[i]))}`);
    const lower = points.map((h) => `${px(xOf(h.permutations))},${px(scale.toPixel(h.ci[i]?.[0] ?? h.values[i]))}`).reverse();
    const line = points.map((h) => `${px(xOf(h.permutations))},${px(scale.toPixel(h.values[i]))}`);
    const final = points[points.length - 1];
    parts.push(`<g><title>${escapeHtml(`${clipText(player, 200)}: ${formatSigned(final.values[i])} after ${formatCount(final.permutations)} permutations`)}</title>`);
    parts.push(`<polygon class="band ${cls}" points="${[...upper, ...lower].join(' ')}"/>`);
    parts.push(`<polyline class="series ${cls}" points="${line.join(' ')}"/>`);
    parts.push(`</g>`);
  });
  parts.push(`</svg>`);
  return `<figure class="convergence-figure">${parts.join('')}<figcaption>${seriesLegend(players)}</figcaption></figure>`;
}

/** Powers of two (log axis) or about five evenly spaced whole numbers (linear axis). */
function xTicks(first: number, last: number, logX: boolean): number[] {
  if (first === last) return [first];
  if (logX) {
    const ticks: number[] = [];
    for (let t = 2 ** Math.ceil(Math.log2(first)); t <= last; t *= 2) ticks.push(t);
    const stride = Math.ceil(ticks.length / 8);
    return ticks.filter((_, k) => k % stride === 0);
  }
  return linearScale(first, last, 0, 1).ticks.filter((t) => t >= first && t <= last && Number.isInteger(t));
}
