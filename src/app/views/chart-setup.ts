/**
 * Chart.js, registered once with only the parts the workbench draws (tree-shaken): the Monte Carlo
 * convergence lines. (The batch bars are plain SVG: they redraw on every batch of results.)
 */
import { CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartDataset, type ChartOptions, type TooltipItem } from 'chart.js';
import { formatNumber, formatTick } from '../../report/format.ts';

Chart.register(CategoryScale, LinearScale, LineController, LineElement, PointElement, Filler, Tooltip, Legend);

export { Chart };

/** Reads a CSS custom property of the page (so charts follow the light or dark theme). */
export function cssColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

/** A value axis's tick in the page's number format (U+2212 minus), not Chart.js's locale one (a hyphen). */
export function tickText(value: number | string): string {
  return typeof value === 'number' ? formatTick(value) : value;
}

/** A tooltip line "series: value" in the page's number format, `decimals` places and an optional unit. */
export function numberTooltip(decimals: number, unit = ''): (item: TooltipItem<'line'>) => string {
  return (item) => `${item.dataset.label ?? ''}: ${formatNumber(item.parsed.y ?? undefined, decimals)}${unit}`;
}

/** Series colours of the line charts, in order (an eleventh series reuses the first). */
export const SERIES_COLORS = ['#3558d6', '#d6553a', '#2f9e6e', '#a04fc4', '#c79a16', '#1f8fb3', '#c2417f', '#6b7a20', '#7a5230', '#4b4b8f'];

/**
 * A series' interval drawn as a band: two invisible lines, the lower filled up to the upper, named
 * `<label> upper` and `<label> lower` so legends and tooltips can leave them out (isBandLabel).
 * `tint` is the fill's alpha as two hex digits.
 */
export function bandDatasets(label: string, upper: (number | null)[], lower: (number | null)[], color: string, tint: string, spanGaps?: boolean) {
  const band = { borderColor: 'transparent', backgroundColor: `${color}${tint}`, pointRadius: 0, ...(spanGaps !== undefined && { spanGaps }) };
  return [
    { label: `${label} upper`, data: upper, ...band, fill: false as const },
    { label: `${label} lower`, data: lower, ...band, fill: '-1' as const },
  ];
}

/** Whether a dataset label is one of a band's two lines. */
export function isBandLabel(text: string): boolean {
  return / (upper|lower)$/.test(text);
}

/**
 * A line chart as the workbench draws them: no animation, sized by its container, each band's two
 * lines left out of the legend and the tooltips, the values in tooltips as the page prints numbers
 * (`tooltip`: decimals and unit). The caller destroys it.
 */
export function lineChart(canvas: HTMLCanvasElement, labels: string[], datasets: ChartDataset<'line', (number | null)[]>[], scales: NonNullable<ChartOptions<'line'>['scales']>, tooltip: { decimals: number; unit?: string } = { decimals: 3 }): { destroy(): void } {
  return new Chart<'line', (number | null)[], string>(canvas, {
    type: 'line',
    data: { labels, datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales,
      plugins: { legend: { labels: { filter: (item) => !isBandLabel(item.text), color: cssColor('--text', '#1d1d24') } }, tooltip: { filter: (item) => !isBandLabel(item.dataset.label ?? ''), callbacks: { label: numberTooltip(tooltip.decimals, tooltip.unit) } } },
    },
  });
}
