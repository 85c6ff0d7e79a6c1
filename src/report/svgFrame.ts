import { clipText, escapeHtml } from './escape.ts';
import { px, type LinearScale } from './svgScale.ts';

/** Series colours cycle through this many classes (s0..s7 in the stylesheet). */
export const SERIES_CLASSES = 8;

/** A line chart's size and the margins around its plot (for the axes' labels), in pixels. */
export interface PlotFrame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * The opening of a chart: the svg element, named for assistive technology, and its title (the
 * tooltip over it). `attributes` are more attributes of the element (a test id).
 */
export function svgHead(className: string, width: number, height: number, title: string, attributes = ''): string[] {
  return [`<svg class="${className}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}"${attributes}>`, `<title>${escapeHtml(title)}</title>`];
}

/** A line chart's horizontal grid: a line and a label left of the plot at each of the value scale's ticks. */
export function valueGrid(scale: LinearScale, frame: PlotFrame, label: (tick: number) => string): string[] {
  return scale.ticks.flatMap((tick) => {
    const y = px(scale.toPixel(tick));
    return [
      `<line class="grid" x1="${frame.left}" x2="${frame.width - frame.right}" y1="${y}" y2="${y}"/>`,
      `<text class="tick" x="${frame.left - 6}" y="${px(scale.toPixel(tick) + 4)}" text-anchor="end">${escapeHtml(label(tick))}</text>`,
    ];
  });
}

/** A legend of series, each with its colour's swatch (an SVG square, so no inline style is needed); `note` adds text after a name. */
export function seriesLegend(names: readonly string[], note: (name: string) => string = () => ''): string {
  const items = names.map((name, i) => `<li><svg class="swatch" viewBox="0 0 12 12" aria-hidden="true"><rect class="series-fill s${i % SERIES_CLASSES}" width="12" height="12" rx="2"/></svg>${escapeHtml(clipText(name, 200))}${note(name)}</li>`);
  return `<ul class="legend">${items.join('')}</ul>`;
}
