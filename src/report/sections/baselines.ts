import type { CaseResult } from '../../engine/types.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount, formatSigned } from '../format.ts';
import { stepBaselines } from '../stepBaselines.ts';
import { barChartSvg } from '../svgBars.ts';
import { num, signClass } from './batch.ts';
import { NAME_CHARS } from './header.ts';
import { NOT_COMPUTED_WITHIN_BUDGET as NOT_COMPUTED } from '../../engine/result-fields.ts';

/**
 * Shapley beside the naive baselines, averaged over analysed failures: a grouped bar chart and a
 * table, with a short note on how each baseline goes wrong (over-determination, conjunction).
 */
export function renderBaselines(results: readonly CaseResult[], stepOrder: readonly string[]): string {
  const { analysed, withFixAlone, withLeaveOneOut, steps } = stepBaselines(results, stepOrder);
  if (analysed === 0) {
    return `<section id="baselines" aria-labelledby="baselines-title"><h2 id="baselines-title">Shapley and the baselines</h2><p class="muted">No analysed failures to compare.</p></section>`;
  }
  const chart = barChartSvg(
    steps.map((s) => ({
      label: s.step,
      bars: [
        { value: s.shapley, series: 'Shapley', seriesClass: 'b-shapley' },
        // A baseline no case computed within its budget has no bar (a 0 would read as a measurement).
        ...(withFixAlone > 0 ? [{ value: s.fixAlone, series: 'fix-alone', seriesClass: 'b-fixalone' }] : []),
        ...(withLeaveOneOut > 0 ? [{ value: s.leaveOneOut, series: 'leave-one-out', seriesClass: 'b-loo' }] : []),
      ],
    })),
    { title: 'Mean Shapley, fix-alone and leave-one-out per step' },
  );
  const legend = [['s0', 'Shapley'], ...(withFixAlone > 0 ? [['s3', 'fix-alone']] : []), ...(withLeaveOneOut > 0 ? [['s4', 'leave-one-out']] : [])]
    .map(([cls, name]) => `<li><svg class="swatch" viewBox="0 0 12 12" aria-hidden="true"><rect class="series-fill ${cls}" width="12" height="12" rx="2"/></svg>${name}</li>`)
    .join('');
  const rows = steps
    .map(
      (s) =>
        `<tr><td>${e(clipText(s.step, NAME_CHARS))}</td>` +
        `<td class="num ${signClass(s.shapley)}" data-v="${num(s.shapley)}">${e(formatSigned(s.shapley))}</td>` +
        baselineCell(s.fixAlone, withFixAlone) +
        baselineCell(s.leaveOneOut, withLeaveOneOut) +
        `<td class="num" data-v="${num(s.lastTouch)}">${e(`${formatCount(s.lastTouch)} of ${formatCount(analysed)}`)}</td></tr>`,
    )
    .join('');
  return `<section id="baselines" aria-labelledby="baselines-title">
<h2 id="baselines-title">Shapley and the baselines</h2>
<p>Means over ${e(formatCount(analysed))} analysed failure${analysed === 1 ? '' : 's'}.${budgetNote('Fix-alone', withFixAlone, analysed)}${budgetNote('Leave-one-out', withLeaveOneOut, analysed)} <strong>Fix-alone</strong>, v({i}) − v(∅), gives every sufficient cause full credit and a cause that only works together with another none. <strong>Leave-one-out</strong>, v(all) − v(all − i), gives redundant causes nothing. <strong>Last touch</strong> blames the last step whose output differs from its all-fixed output. Shapley averages a step’s effect over every order of applying the fixes.</p>
<figure>${chart}<figcaption><ul class="legend">${legend}</ul></figcaption></figure>
<table class="sortable"><thead><tr><th>Step</th><th class="num">Shapley</th><th class="num">Fix-alone</th><th class="num">Leave-one-out</th><th class="num">Last touch</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}

/** A baseline's mean, or what stopped it when no case computed it within its budget. */
function baselineCell(value: number, cases: number): string {
  if (cases === 0) return `<td class="num muted" data-v="0">${NOT_COMPUTED}</td>`;
  return `<td class="num" data-v="${num(value)}">${e(formatSigned(value))}</td>`;
}


/** Over how many failures a baseline is averaged, when a budget left it out of some. */
function budgetNote(name: string, cases: number, analysed: number): string {
  if (cases === analysed) return '';
  return cases === 0
    ? ` ${name}: ${NOT_COMPUTED} (the Monte Carlo budget was spent first).`
    : ` ${name}: over the ${e(formatCount(cases))} whose budget reached it (${NOT_COMPUTED} in the others).`;
}
