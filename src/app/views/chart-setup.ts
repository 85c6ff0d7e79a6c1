/**
 * Chart.js, registered once with only the parts the workbench draws (tree-shaken): the Monte Carlo
 * convergence lines. (The batch bars are plain SVG: they redraw on every batch of results.)
 */
import { CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';

Chart.register(CategoryScale, LinearScale, LineController, LineElement, PointElement, Filler, Tooltip, Legend);

export { Chart };

/** Reads a CSS custom property of the page (so charts follow the light or dark theme). */
export function cssColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}
