import { NOT_COMPUTED_WITHIN_BUDGET } from '../../engine/result-fields.ts';
import type { BatchResult, CaseResult } from '../../engine/types.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount, formatInterval, formatPercent, formatSigned } from '../format.ts';
import { signedBarsSvg } from '../svgSignedBars.ts';
import { stripSvg } from '../svgStrip.ts';
import { NAME_CHARS } from './header.ts';
import { batchHeadline, failureCount } from '../headline.ts';

/**
 * The batch view: a one-line finding, a bar chart of mean Shapley blame with confidence whiskers,
 * and the sortable table of the batch aggregates (docs/method.md, "Batch").
 */
export function renderBatch(batch: BatchResult | undefined, delta: number, results: readonly CaseResult[] = []): string {
  if (!batch) {
    return `<section id="batch" aria-labelledby="batch-title"><h2 id="batch-title">Blame across failures</h2><p class="muted">This session has no batch summary yet (the analysis did not finish).</p></section>`;
  }
  const steps = [...batch.steps].sort((a, b) => b.meanShapley - a.meanShapley);
  const top = steps[0];
  // The workbench's own headline (one builder), step names clipped as everywhere in the report.
  const headline = batchHeadline({ ...batch, steps: batch.steps.map((s) => ({ ...s, step: clipText(s.step, NAME_CHARS) })) });
  const finding = top && headline ? `<p class="lead" data-testid="report-headline">${e(headline)}.</p>` : '';
  const counts = `<p class="muted">${e(
    `${failureCount(batch.failures)}, ${formatCount(batch.analyzed)} analysed, ${formatCount(batch.unfixable)} that no combination of the fixes repairs (counted apart); total step cost ${formatCount(batch.cost)}.`,
  )}${batch.stoppedEarly ? ' Analysis stopped early: the top step was already separated from the others.' : ''}</p>`;
  // Signed bars by size with values and whiskers, as in the workbench's batch view (the same builder).
  const chart = signedBarsSvg(batch);
  // Every case's value per step, as in the workbench's batch view (the same builder).
  const strip = stripSvg(results, steps.map((s) => s.step));
  const level = `${Number(((1 - delta) * 100).toFixed(2))} %`;
  const rows = steps
    .map(
      (s) => `<tr><td>${e(clipText(s.step, NAME_CHARS))}</td>` +
        `<td class="num ${signClass(s.meanShapley)}" data-v="${num(s.meanShapley)}">${e(formatSigned(s.meanShapley))}</td>` +
        `<td class="num" data-v="${num(s.ci[0])}">${e(formatInterval(s.ci))}</td>` +
        `<td class="num" data-v="${num(s.share)}">${e(formatPercent(s.share))}</td>` +
        (batch.fixAloneKnown === 0 ? `<td class="num muted" data-v="0">${NOT_COMPUTED_WITHIN_BUDGET}</td>` : `<td class="num" data-v="${num(s.fixAloneRate)}">${e(formatPercent(s.fixAloneRate))}</td>`) +
        `<td class="num" data-v="${num(s.lastTouch)}">${e(formatCount(s.lastTouch))}</td></tr>`,
    )
    .join('');
  return `<section id="batch" aria-labelledby="batch-title">
<h2 id="batch-title">Blame across failures</h2>
${finding}
${counts}
${chart}
${strip ? `<figure>${strip}<figcaption class="muted">Each analysed failure's Shapley value per step, one dot per case.</figcaption></figure>` : ''}
<table class="sortable"><thead><tr><th>Step</th><th class="num">Mean Shapley</th><th class="num">${e(level)} CI</th><th class="num">Share</th><th class="num">Fixing alone resolves</th><th class="num">Last touch</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">Share: the step’s part of the total repairable failure mass. Last touch: failures whose last step to change its output is this one.${fixAloneNote(batch)}</p>
</section>`;
}

/** A number for a data-v sort key (always our own number, never user text). */
export function num(value: number): string {
  return Number.isFinite(value) ? String(value) : value > 0 ? '1e308' : '-1e308';
}

/** Text colour class for a signed value. */
export function signClass(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value) || Math.abs(value) < 5e-4) return '';
  return value > 0 ? 'pos-text' : 'neg-text';
}

/** Over how many failures "fixing alone resolves" is, when a Monte Carlo budget left the baseline out of some. */
function fixAloneNote(batch: BatchResult): string {
  if (batch.fixAloneKnown === undefined) return '';
  return batch.fixAloneKnown === 0
    ? ` Fixing alone resolves: ${NOT_COMPUTED_WITHIN_BUDGET} (the Monte Carlo budget was spent first).`
    : ` Fixing alone resolves: over the ${e(formatCount(batch.fixAloneKnown))} analysed failures whose budget reached it (${NOT_COMPUTED_WITHIN_BUDGET} in the others).`;
}
