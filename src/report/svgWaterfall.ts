import { barScale } from './barScale.ts';
import { clipText, escapeHtml as e } from './escape.ts';
import { formatNumber, formatSigned, formatTick } from './format.ts';
import { waterfallRows } from './waterfall.ts';

const LABEL = 130;
const PLOT = 460;
const ROW = 26;
const px = (x: number) => String(Math.round(x * 10) / 10);

/**
 * A case's Shapley values as a waterfall (SHAP convention), as inline SVG: from the outcome as run,
 * v(∅), each step moves the running total by its value, largest first, coloured by sign (`pos`
 * blame, `neg` a fix that makes things worse), to the outcome with every fix, v(all). One builder
 * for the workbench's case view and the report's drill-down, so both draw the same picture; every
 * name passes through escapeHtml.
 */
export function waterfallSvg(vEmpty: number, vAll: number, shapley: Readonly<Record<string, number>>, players: readonly string[]): string {
  const rows = waterfallRows(vEmpty, shapley, players);
  const scale = barScale([vEmpty, vAll, ...rows.flatMap((r) => [r.from, r.to])]);
  const height = (rows.length + 2) * ROW + 30;
  const last = (rows.length + 1) * ROW + 4;
  const x = (value: number) => LABEL + scale.at(Number.isFinite(value) ? value : 0) * PLOT;
  const title = `Waterfall from the outcome as run, ${formatNumber(vEmpty)}, through each step's Shapley value, largest first, to the outcome with every fix, ${formatNumber(vAll)}.`;
  const parts = [`<svg class="chart waterfall" viewBox="0 0 ${LABEL + PLOT + 70} ${height}" role="img" aria-label="${e(title)}" data-testid="case-waterfall">`, `<title>${e(title)}</title>`];
  for (const tick of scale.ticks) {
    parts.push(`<line class="grid" x1="${px(x(tick))}" x2="${px(x(tick))}" y1="0" y2="${height - 24}"/>`, `<text class="tick" x="${px(x(tick))}" y="${height - 8}" text-anchor="middle">${e(formatTick(tick))}</text>`);
  }
  parts.push(
    `<text class="label" x="${LABEL - 8}" y="${ROW / 2 + 8}" text-anchor="end">as run, v(∅)</text>`,
    `<circle class="end" cx="${px(x(vEmpty))}" cy="${ROW / 2 + 4}" r="5"/>`,
    `<text class="value" x="${px(x(vEmpty) + 9)}" y="${ROW / 2 + 8}">${e(formatNumber(vEmpty))}</text>`,
  );
  rows.forEach((row, i) => {
    const top = (i + 1) * ROW + 4;
    const sign = row.value > 0 ? 'pos' : row.value < 0 ? 'neg' : 'zero';
    parts.push(
      `<text class="label" x="${LABEL - 8}" y="${top + ROW / 2}" text-anchor="end">${e(clipText(row.step, 17))}</text>`,
      `<rect class="bar ${sign}" x="${px(Math.min(x(row.from), x(row.to)))}" y="${top + 3}" width="${px(Math.max(1, Math.abs(x(row.to) - x(row.from))))}" height="${ROW - 8}"><title>${e(clipText(row.step, 200))}: ${e(formatSigned(row.value))}</title></rect>`,
      `<line class="link" x1="${px(x(row.from))}" x2="${px(x(row.from))}" y1="${top - 4}" y2="${top + 3}"/>`,
      `<text class="value" x="${px(Math.max(x(row.from), x(row.to)) + 6)}" y="${top + ROW / 2}">${e(formatSigned(row.value))}</text>`,
    );
  });
  parts.push(
    `<text class="label" x="${LABEL - 8}" y="${last + ROW / 2}" text-anchor="end">every fix, v(all)</text>`,
    `<circle class="end" cx="${px(x(vAll))}" cy="${last + ROW / 2 - 4}" r="5"/>`,
    `<text class="value" x="${px(x(vAll) + 9)}" y="${last + ROW / 2}">${e(formatNumber(vAll))}</text>`,
    '</svg>',
  );
  return parts.join('');
}
