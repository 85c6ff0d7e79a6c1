import { describe, expect, it } from 'vitest';
import { REFUND_FIXES, refundSession } from './fixtures/refundSession.ts';
import { renderReport } from './renderReport.ts';
import { auditChartRows, auditChartSvg } from './auditChart.ts';
import { auditStudy } from '../engine/audit/audit-study.ts';
import { isAnalysedFailure } from '../engine/case-result.ts';
import { repairsFromTable } from '../engine/repairs/table-repairs.ts';

function repairedSession() {
  const session = refundSession();
  return {
    ...session,
    results: session.results.map((r) => (isAnalysedFailure(r) ? { ...r, ...repairsFromTable(r, 1)! } : r)),
  };
}

describe('report sections for repairs and the credit audit', () => {
  it('the refund demo: planner or retriever alone repairs, or writer and reviewer together', () => {
    const session = repairedSession();
    const failure = session.results.find(isAnalysedFailure)!;
    expect(failure.repairs!.map((x) => x.fixed)).toEqual([['planner'], ['retriever'], ['writer', 'reviewer']]);
    const html = renderReport(session, { fixes: REFUND_FIXES });
    expect(html).toContain('<h2 id="repairs-title">Minimal repairs</h2>');
    expect(html).toContain('<span class="chip">{planner} · cost 1</span>');
    expect(html).toMatch(/<td>planner<\/td><td class="num" data-v="1">1 of 1<\/td>/);
    expect(html).not.toContain('id="audit"');
  });

  it('shows no repairs section when nothing was searched', () => {
    expect(renderReport(refundSession(), { fixes: REFUND_FIXES })).not.toContain('id="repairs"');
  });

  it('renders the audit with a chart of each signal beside its control, escaping names', () => {
    const session = repairedSession();
    const failures = session.results.filter(isAnalysedFailure);
    const oracle = Object.fromEntries(failures.map((r) => [r.id, { ...r.shapley }]));
    const audit = auditStudy(failures, { '<judge>': oracle }, 1, 200);
    const html = renderReport(session, { fixes: REFUND_FIXES, audit });
    expect(html).toContain('<h2 id="audit-title">Credit audit</h2>');
    expect(html).toContain('&lt;judge&gt;');
    expect(html).not.toContain('<judge>');
    const rows = auditChartRows(audit);
    // One failing case: every usable signal has one correlation, its own bootstrap collapses onto it.
    const judge = rows.find((r) => r.label === '<judge>')!;
    expect(judge.bars.map((b) => b.series)).toEqual(['signal', 'shuffled control']);
    expect(judge.bars[0].value).toBe(1);
    expect(auditChartSvg(audit)).toMatch(/^<svg class="chart"/);
  });
});
