import type { StudyAudit } from '../../engine/audit/audit-study.ts';
import { auditChartSvg } from '../auditChart.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatSigned } from '../format.ts';
import { NAME_CHARS } from './header.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const interval = (ci: readonly [number, number] | null) => (ci ? `[${formatSigned(ci[0])}, ${formatSigned(ci[1])}]` : '–');

/** The credit audit: each signal's rank fidelity beside its shuffled control, as a chart and a table with the verdicts. */
export function renderAudit(audit: StudyAudit): string {
  const rows = audit.signals
    .map(
      (s) =>
        `<tr><td>${e(clipText(s.name, NAME_CHARS))}${s.builtin ? '' : ' <span class="muted">(given)</span>'}</td>` +
        `<td class="num">${e(`${s.used} of ${s.cases}`)}</td>` +
        `<td class="num">${e(s.fidelity.median === null ? '–' : formatSigned(s.fidelity.median))} ${e(interval(s.fidelity.ci))}</td>` +
        `<td class="num">${e(s.control.median === null ? '–' : formatSigned(s.control.median))} ${e(interval(s.control.ci))}</td>` +
        `<td class="num">${e(`${s.pivotal.hits}/${s.pivotal.n} [${pct(s.pivotal.ci[0])}, ${pct(s.pivotal.ci[1])}]`)}</td>` +
        `<td class="num">${e(`${s.sign.agree}/${s.sign.n} [${pct(s.sign.ci[0])}, ${pct(s.sign.ci[1])}]`)}</td>` +
        `<td>${e(s.verdict)}</td></tr>`,
    )
    .join('');
  return `<section id="audit" aria-labelledby="audit-title">
<h2 id="audit-title">Credit audit</h2>
<p>Each credit signal against the replay's Shapley values: the median within-case Spearman correlation with a bootstrap 95% interval (${e(String(audit.resamples))} resamples of cases, seed ${e(String(audit.seed))}), beside the same for its scores shuffled within each case. A signal is above its control only when the two intervals do not overlap.</p>
<figure>${auditChartSvg(audit)}</figure>
<table><thead><tr><th>Signal</th><th class="num">Cases used</th><th class="num">Spearman [95%]</th><th class="num">Shuffled [95%]</th><th class="num">Top-1 at pivotal</th><th class="num">Sign agreement</th><th>Verdict</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}
