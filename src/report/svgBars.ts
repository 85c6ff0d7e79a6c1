import { clipText, escapeHtml } from './escape.ts';
import { formatInterval, formatSigned } from './format.ts';
import { linearScale, px } from './svgScale.ts';
import { svgHead } from './svgFrame.ts';

export interface Bar {
  value: number;
  ci?: readonly [number, number];
  /** Series name, shown in the tooltip and legend when a row has several bars. */
  series?: string;
  /** CSS class for the fill; defaults to positive/negative colouring by sign. */
  seriesClass?: string;
}

export interface BarRow {
  label: string;
  bars: Bar[];
}

export interface BarChartOptions {
  /** Accessible name of the chart. */
  title: string;
  /** Show the numeric value at the end of each bar. */
  valueLabels?: boolean;
}

// The chart's width, its label and value columns, each bar's height and the gap between a row's bars, a row's padding, the axis.
const [WIDTH, LABEL_WIDTH, VALUE_WIDTH, BAR_HEIGHT, BAR_GAP, ROW_PAD, AXIS_HEIGHT] = [720, 170, 76, 14, 3, 10, 24];

/**
 * A horizontal bar chart as inline SVG (no script, no external resource): one row per label, one or
 * more bars per row, each with an optional confidence-interval whisker. Positive bars and negative
 * bars get different classes so the stylesheet colours them in light and dark themes.
 * All text passes through escapeHtml; labels are clipped for layout and given whole in a tooltip.
 */
export function barChartSvg(rows: readonly BarRow[], options: BarChartOptions): string {
  const extremes = rows.flatMap((row) => row.bars.flatMap((bar) => [bar.value, ...(bar.ci ?? [])])).filter(Number.isFinite);
  const scale = linearScale(Math.min(0, ...extremes), Math.max(0, ...extremes), LABEL_WIDTH, WIDTH - VALUE_WIDTH);
  const perRow = Math.max(1, ...rows.map((row) => row.bars.length));
  const rowHeight = perRow * BAR_HEIGHT + (perRow - 1) * BAR_GAP + ROW_PAD * 2;
  const height = rows.length * rowHeight + AXIS_HEIGHT;
  const zero = scale.toPixel(0);
  const parts: string[] = [];

  parts.push(...svgHead('chart', WIDTH, height, options.title));
  for (const tick of scale.ticks) {
    const x = px(scale.toPixel(tick));
    parts.push(`<line class="grid" x1="${x}" x2="${x}" y1="0" y2="${rows.length * rowHeight}"/>`);
    parts.push(`<text class="tick" x="${x}" y="${rows.length * rowHeight + 16}" text-anchor="middle">${escapeHtml(formatSigned(tick, tickDecimals(scale.ticks)))}</text>`);
  }
  rows.forEach((row, r) => {
    const top = r * rowHeight + ROW_PAD;
    const middle = r * rowHeight + rowHeight / 2;
    parts.push(`<g class="row">`);
    parts.push(`<text class="label" x="${LABEL_WIDTH - 10}" y="${px(middle + 4)}" text-anchor="end">${escapeHtml(clipText(row.label, 22))}</text>`);
    row.bars.forEach((bar, b) => {
      const y = top + b * (BAR_HEIGHT + BAR_GAP);
      const value = Number.isFinite(bar.value) ? bar.value : 0;
      const end = scale.toPixel(value);
      const cls = bar.seriesClass ?? (value < 0 ? 'neg' : 'pos');
      const tooltip = `${clipText(row.label, 200)}${bar.series ? ` · ${bar.series}` : ''}: ${formatSigned(bar.value)}${bar.ci ? ` ${formatInterval(bar.ci)}` : ''}`;
      parts.push(`<g><title>${escapeHtml(tooltip)}</title>`);
      parts.push(`<rect class="bar ${cls}" x="${px(Math.min(zero, end))}" y="${px(y)}" width="${px(Math.max(1, Math.abs(end - zero)))}" height="${BAR_HEIGHT}" rx="2"/>`);
      let rightmost = Math.max(zero, end);
      if (bar.ci && bar.ci.every(Number.isFinite)) {
        const lo = scale.toPixel(bar.ci[0]);
        const hi = scale.toPixel(bar.ci[1]);
        const cy = px(y + BAR_HEIGHT / 2);
        parts.push(
          `<path class="whisker" d="M${px(lo)} ${cy}H${px(hi)}M${px(lo)} ${px(y + 2)}V${px(y + BAR_HEIGHT - 2)}M${px(hi)} ${px(y + 2)}V${px(y + BAR_HEIGHT - 2)}"/>`,
        );
        rightmost = Math.max(rightmost, hi);
      }
      if (options.valueLabels !== false) {
        parts.push(`<text class="value" x="${px(rightmost + 6)}" y="${px(y + BAR_HEIGHT - 3)}">${escapeHtml(formatSigned(bar.value))}</text>`);
      }
      parts.push(`</g>`);
    });
    parts.push(`</g>`);
  });
  parts.push(`<line class="axis" x1="${px(zero)}" x2="${px(zero)}" y1="0" y2="${rows.length * rowHeight}"/>`);
  parts.push(`</svg>`);
  return parts.join('');
}

/** Enough decimals to tell the ticks apart (0.25 needs two, 0.5 one). */
function tickDecimals(ticks: readonly number[]): number {
  let decimals = 0;
  for (const tick of ticks) {
    const text = String(tick);
    const dot = text.indexOf('.');
    if (dot >= 0) decimals = Math.max(decimals, text.length - dot - 1);
  }
  return Math.min(decimals, 3);
}
