import { isAnalysedFailure } from '../engine/case-result.ts';
import { ownValue } from '../engine/named-record.ts';
import type { AttributedCaseResult, CaseResult } from '../engine/types.ts';
import { barScale } from './barScale.ts';
import { clipText, escapeHtml as e } from './escape.ts';
import { formatTick } from './format.ts';

/** At most this many cases are drawn per step (every k-th beyond it). */
export const STRIP_MAX_DOTS = 600;
const LABEL = 120;
const PLOT = 476;
const ROW = 30;
const px = (x: number) => String(Math.round(x * 10) / 10);
/** A fixed vertical offset in [-1, 1] for the i-th case (Weyl sequence: even spread, no randomness). */
const jitter = (i: number) => ((i * 0.618033988749895) % 1) * 2 - 1;

/** The analysed failures a strip plot draws: every one, or every k-th when there are more than STRIP_MAX_DOTS. */
export function stripCases(results: readonly (CaseResult | undefined)[]): { drawn: AttributedCaseResult[]; analysed: number; stride: number } {
  const analysed = results.filter((r): r is AttributedCaseResult => r !== undefined && isAnalysedFailure(r));
  const stride = Math.max(1, Math.ceil(analysed.length / STRIP_MAX_DOTS));
  return { drawn: analysed.filter((_, i) => i % stride === 0), analysed: analysed.length, stride };
}

/**
 * Each analysed failure's Shapley value per step, one dot per case (a strip plot, the beeswarm's
 * cheap cousin), as inline SVG: the spread behind each mean, and where negative blame lives. Dots
 * are spread vertically by the case's position, so the picture is the same on every redraw. One
 * builder for the workbench's batch view and the report; every name passes through escapeHtml.
 * Empty when no failure has been analysed.
 */
export function stripSvg(results: readonly (CaseResult | undefined)[], steps: readonly string[]): string {
  const { drawn, stride } = stripCases(results);
  if (drawn.length === 0) return '';
  const scale = barScale(drawn.flatMap((r) => steps.map((s) => ownValue(r.shapley, s) ?? 0)));
  const height = steps.length * ROW + 34;
  const x = (value: number) => LABEL + scale.at(value) * PLOT;
  const title = `Each analysed failure's Shapley value per step, one dot per case${stride > 1 ? ` (every ${stride}th case)` : ''}.`;
  const parts = [`<svg class="chart strip" viewBox="0 0 ${LABEL + PLOT + 20} ${height}" role="img" aria-label="${e(title)}" data-testid="batch-strip">`, `<title>${e(title)}</title>`];
  for (const tick of scale.ticks) {
    parts.push(`<line class="grid${tick === 0 ? ' zero' : ''}" x1="${px(x(tick))}" x2="${px(x(tick))}" y1="0" y2="${height - 24}"/>`, `<text class="tick" x="${px(x(tick))}" y="${height - 8}" text-anchor="middle">${e(formatTick(tick))}</text>`);
  }
  steps.forEach((step, k) => {
    const mid = k * ROW + 6 + ROW / 2 - 4;
    parts.push(`<text class="label" x="${LABEL - 8}" y="${mid + 4}" text-anchor="end">${e(clipText(step, 16))}</text>`);
    drawn.forEach((result, i) => {
      const v = ownValue(result.shapley, step);
      if (v === undefined || !Number.isFinite(v)) return;
      const sign = v > 5e-4 ? ' pos' : v < -5e-4 ? ' neg' : '';
      parts.push(`<circle class="dot${sign}" cx="${px(x(v))}" cy="${px(mid + jitter(i) * (ROW / 2 - 5))}" r="2.5"/>`);
    });
  });
  parts.push('</svg>');
  return parts.join('');
}
