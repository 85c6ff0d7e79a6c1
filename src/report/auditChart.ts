import type { StudyAudit } from '../engine/audit/audit-study.ts';
import { barChartSvg, type BarRow } from './svgBars.ts';

/** Each signal's rank fidelity beside its shuffled control, as rows of the bar chart (signals without a usable case are left out). */
export function auditChartRows(audit: StudyAudit): BarRow[] {
  return audit.signals
    .filter((s) => s.fidelity.median !== null && s.control.median !== null)
    .map((s) => ({
      label: s.name,
      bars: [
        { value: s.fidelity.median!, ...(s.fidelity.ci && { ci: s.fidelity.ci }), series: 'signal', seriesClass: 'b-shapley' },
        { value: s.control.median!, ...(s.control.ci && { ci: s.control.ci }), series: 'shuffled control', seriesClass: 'b-loo' },
      ],
    }));
}

/** The audit chart as inline SVG: median within-case Spearman of each signal and its control, with bootstrap 95% whiskers. */
export function auditChartSvg(audit: StudyAudit): string {
  return barChartSvg(auditChartRows(audit), { title: 'Median within-case Spearman of each credit signal beside its shuffled control' });
}
