import type { CaseResult } from '../../engine/types.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount, formatSigned } from '../format.ts';
import { stepBaselines } from '../stepBaselines.ts';
import { barChartSvg } from '../svgBars.ts';
import { num, signClass } from './batch.ts';
import { NAME_CHARS } from './header.ts';

/**
 * Shapley beside the naive baselines, averaged over analysed failures: a grouped bar chart and a
 * table, with a short note on how each baseline goes wrong (over-determination, conjunction).
 */
export function renderBaselines(results: readonly CaseResult[], stepOrder: readonly string[]): string {
  const { analysed, steps } = stepBaselines(results, stepOrder);
  if (analysed === 0) {
    return `<section id="baselines" aria-labelledby="baselines-title"><h2 id="baselines-title">Shapley and the baselines</h2><p class="muted">No analysed failures to compare.</p></section>`;
  }
  const chart = barChartSvg(
    steps.map((s) => ({
      label: s.step,
      bars: [
        { value: s.shapley, series: 'Shapley', seriesClass: 'b-shapley' },
        { value: s.fixAlone, series: 'fix-alone', seriesClass: 'b-fixalone' },
        { value: s.leaveOneOut, series: 'leave-one-out', seriesClass: 'b-loo' },
      ],
    })),
    { title: 'Mean Shapley, fix-alone and leave-one-out per step' },
  );
  const legend = [
    ['s0', 'Shapley'],
    ['s3', 'fix-alone'],
    ['s4', 'leave-one-out'],
  ]
    .map(([cls, name]) => `<li><svg class="swatch" viewBox="0 0 12 12" aria-hidden="true"><rect class="series-fill ${cls}" width="12" height="12" rx="2"/></svg>${name}</li>`)
    .join('');
  const rows = steps
    .map(
      (s) =>
        `<tr><td>${e(clipText(s.step, NAME_CHARS))}</td>` +
        `<td class="num ${signClass(s.shapley)}" data-v="${num(s.shapley)}">${e(formatSigned(s.shapley))}</td>` +
        `<td class="num" data-v="${num(s.fixAlone)}">${e(formatSigned(s.fixAlone))}</td>` +
        `<td class="num" data-v="${num(s.leaveOneOut)}">${e(formatSigned(s.leaveOneOut))}</td>` +
        `<td class="num" data-v="${num(s.lastTouch)}">${e(`${formatCount(s.lastTouch)} of ${formatCount(analysed)}`)}</td></tr>`,
    )
    .join('');
  return `<section id="baselines" aria-labelledby="baselines-title">
<h2 id="baselines-title">Shapley and the baselines</h2>
<p>Means over ${e(formatCount(analysed))} analysed failure${analysed === 1 ? '' : 's'}. <strong>Fix-alone</strong>, v({i}) − v(∅), gives every sufficient cause full credit and a cause that only works together with another none. <strong>Leave-one-out</strong>, v(all) − v(all − i), gives redundant causes nothing. <strong>Last touch</strong> blames the last step whose output differs from its all-fixed output. Shapley averages a step’s effect over every order of applying the fixes.</p>
<figure>${chart}<figcaption><ul class="legend">${legend}</ul></figcaption></figure>
<table class="sortable"><thead><tr><th>Step</th><th class="num">Shapley</th><th class="num">Fix-alone</th><th class="num">Leave-one-out</th><th class="num">Last touch</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}
