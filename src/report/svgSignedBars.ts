import type { BatchResult } from '../engine/types.ts';
import { barScale } from './barScale.ts';
import { byMagnitude } from './byMagnitude.ts';
import { clipText, escapeHtml as e } from './escape.ts';
import { formatNumber, formatPercent, formatTick } from './format.ts';
import { NOT_COMPUTED_WITHIN_BUDGET } from '../engine/result-fields.ts';
import { svgHead } from './svgFrame.ts';
import { px } from './svgScale.ts';

// The label column, the value column, the plot, the gap before the baselines panel, that panel, a row.
const [LABEL, VALUE, FULL_PLOT, GAP, BASE, ROW] = [120, 56, 420, 28, 220, 30];
/** Room right of the baselines panel for a full bar's value label ("100.0 %") and the "100 %" tick. */
const BASE_RIGHT = 48;
/** The narrowest plot a fitted chart draws its bars in (px); a narrower space scrolls. */
const MIN_PLOT = 120;

/** A value with an explicit + when positive and three decimals, blank when unknown. */
function signedText(value: number): string {
  return Number.isFinite(value) ? (value > 0 ? '+' : '') + formatNumber(value, 3) : '';
}

function signOf(value: number): 'pos' | 'neg' | 'zero' {
  return !Number.isFinite(value) || Math.abs(value) < 5e-4 ? 'zero' : value > 0 ? 'pos' : 'neg';
}

/**
 * Mean Shapley per step as signed bars (SHAP conventions), as inline SVG: largest blame first
 * whatever its sign, blame (`pos`) and negative blame (`neg`, a fix that makes things worse) in
 * their own colours, the value at the end of each bar and the CI whiskers. With `baselines`, the
 * fix-alone rate and the last-touch share get a panel of their own on a 0-100 % scale beside it,
 * so they never squash the Shapley scale, each bar with its rate at its end. One builder for the workbench's batch view and the
 * report's batch section: the same picture in both. Missing numbers (before the first results)
 * are drawn at zero; a fix-alone rate no case computed (a budget left it out) has no bar, only
 * "not computed", since a 0 would read as a measurement. Every name passes through escapeHtml. `fitWidth` (the page's space for it, in
 * px) narrows the bars' plot so the chart is drawn at that width with its text at full size (a phone
 * sees every bar and its value without scrolling), down to a plot of MIN_PLOT px.
 */
export function signedBarsSvg(batch: BatchResult, baselines = false, fitWidth?: number): string {
  const steps = byMagnitude(batch.steps);
  const around = LABEL + VALUE + (baselines ? GAP + BASE + BASE_RIGHT : 10);
  const plot = fitWidth === undefined ? FULL_PLOT : Math.max(MIN_PLOT, Math.min(FULL_PLOT, Math.floor(fitWidth) - around));
  const width = around + plot;
  const height = steps.length * ROW + 34;
  const scale = barScale(steps.flatMap((s) => [s.ci[0], s.ci[1], s.meanShapley]));
  const x = (value: number) => LABEL + scale.at(Number.isFinite(value) ? value : 0) * plot;
  const baseLeft = LABEL + plot + VALUE + GAP;
  const bx = (rate: number) => baseLeft + Math.max(0, Math.min(1, Number.isFinite(rate) ? rate : 0)) * BASE;
  const touchShare = (lastTouch: number) => (batch.analyzed > 0 ? lastTouch / batch.analyzed : Number.NaN);
  // No analysed failure computed its fix-alone value within its budget (engine/batch.ts).
  const aloneKnown = batch.fixAloneKnown !== 0;
  const rateText = (rate: number) => (Number.isFinite(rate) ? formatPercent(rate) : '');
  const title = `Mean Shapley blame per step, largest first, with confidence intervals${baselines ? '; beside it the fix-alone and last-touch baselines on a 0 to 100 % scale' : ''}. The numbers are in the table below.`;
  const parts = svgHead('chart bars', width, height, title, ' data-testid="batch-bars"');
  for (const tick of scale.ticks) {
    parts.push(`<line class="grid${tick === 0 ? ' zero' : ''}" x1="${px(x(tick))}" x2="${px(x(tick))}" y1="0" y2="${height - 24}"/>`, `<text class="tick" x="${px(x(tick))}" y="${height - 8}" text-anchor="middle">${e(formatTick(tick))}</text>`);
  }
  if (baselines) {
    for (const tick of [0, 0.5, 1]) {
      parts.push(`<line class="grid" x1="${px(bx(tick))}" x2="${px(bx(tick))}" y1="0" y2="${height - 24}"/>`, `<text class="tick" x="${px(bx(tick))}" y="${height - 8}" text-anchor="middle">${tick * 100} %</text>`);
    }
  }
  steps.forEach((step, i) => {
    const top = i * ROW + 6;
    const mid = top + (ROW - 8) / 2;
    const v = step.meanShapley;
    const [lo, hi] = step.ci;
    parts.push(
      `<g class="row" data-step="${e(step.step)}">`,
      `<text class="label" x="${LABEL - 8}" y="${px(mid + 4)}" text-anchor="end">${e(clipText(step.step, 16))}</text>`,
      `<rect class="bar ${signOf(v)}" x="${px(Math.min(x(0), x(v)))}" y="${top}" width="${px(Math.max(1, Math.abs(x(v) - x(0))))}" height="${ROW - 8}"><title>${e(clipText(step.step, 200))}: mean Shapley ${e(formatNumber(v, 3))}</title></rect>`,
      `<path class="whisker" d="M${px(x(lo))},${px(mid)} H${px(x(hi))} M${px(x(lo))},${px(mid - 6)} V${px(mid + 6)} M${px(x(hi))},${px(mid - 6)} V${px(mid + 6)}"/>`,
      `<text class="value" x="${px(Math.max(x(v), x(hi), x(0)) + 6)}" y="${px(mid + 4)}" data-testid="bar-value">${e(signedText(v))}</text>`,
    );
    if (baselines) {
      const half = (ROW - 8) / 2;
      parts.push(
        aloneKnown
          ? `<rect class="bar alone" x="${px(baseLeft)}" y="${top}" width="${px(bx(step.fixAloneRate) - baseLeft)}" height="${half - 1}"><title>${e(clipText(step.step, 200))}: fixing it alone resolves ${e(formatPercent(step.fixAloneRate))}</title></rect>`
          : `<text class="value rate not-computed" x="${px(baseLeft + 4)}" y="${px(top + half - 2)}" data-testid="baseline-value"><title>${e(clipText(step.step, 200))}: fixing it alone ${NOT_COMPUTED_WITHIN_BUDGET}</title>fix alone: not computed</text>`,
        `<rect class="bar touch" x="${px(baseLeft)}" y="${px(top + half)}" width="${px(bx(touchShare(step.lastTouch)) - baseLeft)}" height="${half - 1}"><title>${e(clipText(step.step, 200))}: last to touch ${e(formatPercent(touchShare(step.lastTouch)))} of failures</title></rect>`,
        ...(aloneKnown ? [`<text class="value rate" x="${px(bx(step.fixAloneRate) + 4)}" y="${px(top + half - 2)}" data-testid="baseline-value">${e(rateText(step.fixAloneRate))}</text>`] : []),
        `<text class="value rate" x="${px(bx(touchShare(step.lastTouch)) + 4)}" y="${px(top + 2 * half - 2)}" data-testid="baseline-value">${e(rateText(touchShare(step.lastTouch)))}</text>`,
      );
    }
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('');
}
