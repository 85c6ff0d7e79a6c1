import type { Trends } from '../../engine/trends.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount } from '../format.ts';
import { trendSvg } from '../svgTrend.ts';
import { NAME_CHARS } from './header.ts';

/** The report's trends: the pipeline they cover and the engine's figures (src/engine/trends.ts). */
export interface ReportTrends {
  pipeline: string;
  trends: Trends;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;
const pair = (ci: readonly [number, number]) => `[${Math.round(ci[0] * 100)}, ${Math.round(ci[1] * 100)}]`;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(Math.round(x * 100))} pts`;

/**
 * "Trends": the headline, the chart of each step's share per period with its band, and a table
 * per period (failures, each step's share with its interval and fix-alone rate, a marked change
 * flagged). The same numbers as the Trends view and `agentblame trend` (docs/trends.md).
 */
export function renderTrends({ pipeline, trends: t }: ReportTrends): string {
  if (t.periods.length === 0) return '';
  const level = `${Number(((1 - t.delta) * 100).toFixed(2))} %`;
  const name = clipText(pipeline, NAME_CHARS);
  const chart = trendSvg(t, `Share of the failure blame per step of “${name}”, by ${t.grouping}, with ${level} intervals`);
  const head = t.steps.map((s) => `<th class="num">${e(clipText(s.step, NAME_CHARS))}</th>`).join('');
  const rows = t.periods
    .map((p, k) => {
      const cells = t.steps
        .map((s) => {
          const point = s.points[k];
          if (!point) return '<td class="num">—</td>';
          const change = s.changes.find((c) => c.to === p.key);
          const flag = change?.marked ? ` <strong title="changed: ${e(points(change.shareChange))} ${e(pair(change.ci))}">${change.shareChange > 0 ? '▲' : '▼'}</strong>` : '';
          return `<td class="num">${e(pct(point.share))} <span class="muted">${e(pair(point.ci))}</span>${flag}<br><span class="muted">alone ${e(pct(point.fixAloneRate))}</span></td>`;
        })
        .join('');
      return `<tr><td>${e(clipText(p.label, NAME_CHARS))}</td><td class="num">${e(formatCount(p.studies.length))}</td><td class="num">${e(formatCount(p.analyzed))}</td>${cells}</tr>`;
    })
    .join('');
  const drifts = t.steps
    .filter((s) => s.drift)
    .map((s) => `<li>${e(clipText(s.step, NAME_CHARS))}: ${e(points(s.drift!.shareChange))} ${e(pair(s.drift!.ci))} from ${e(s.drift!.from.replace(/^[vt]:/, ''))} to ${e(s.drift!.to.replace(/^[vt]:/, ''))}${s.drift!.marked ? ' <strong>(changed)</strong>' : ' (within noise)'}</li>`)
    .join('');
  return `<section id="trends" aria-labelledby="trends-title">
<h2 id="trends-title">Trends of “${e(name)}”</h2>
${t.headline ? `<p><strong>${e(t.headline)}</strong></p>` : ''}
${chart}
<table><thead><tr><th>Period (by ${e(t.grouping)})</th><th class="num">Studies</th><th class="num">Failures analysed</th>${head}</tr></thead><tbody>${rows}</tbody></table>
${drifts ? `<h3>From first to last period</h3><ul>${drifts}</ul>` : ''}
<p class="muted">Each period pools the analysed failures of its studies; a share is Σφ / Σ(v(all) − v(∅)) with its ${e(level)} interval (${e(t.bound)} bound), “alone” the fix-alone rate. ▲▼ marks a change from the period before whose interval excludes 0 (docs/trends.md).</p>
</section>`;
}
