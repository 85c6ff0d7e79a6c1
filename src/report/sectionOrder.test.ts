import { computeTrends, trendDigest } from '../engine/trends.ts';
import { plantedDriftStudies } from '../engine/testing/trend-results.ts';
import { describe, expect, it } from 'vitest';
import { REFUND_FIXES, refundSession } from './fixtures/refundSession.ts';
import { renderReport } from './renderReport.ts';
import { auditStudy } from '../engine/audit/audit-study.ts';
import { isAnalysedFailure } from '../engine/case-result.ts';
import { repairsFromTable } from '../engine/repairs/table-repairs.ts';
import { sampleContrast } from '../session/testing/sample-contrast.ts';
import { drillDownSections, summarySections } from '../session/views.ts';
import { COMPARISON } from './fixtures/comparison.ts';


describe('the report’s sections follow the study views list', () => {
  it('with every section present: the header’s, then findings, evidence and the drill-down in the list’s order', () => {
    const base = refundSession();
    const session = {
      ...base,
      results: base.results.map((r) => (isAnalysedFailure(r) ? { ...r, ...repairsFromTable(r, 1)! } : r)),
      contrast: sampleContrast(),
    };
    const failures = session.results.filter(isAnalysedFailure);
    const audit = auditStudy(failures, { judge: Object.fromEntries(failures.map((r) => [r.id, { ...r.shapley }])) }, 1, 50);
    const trends = computeTrends(plantedDriftStudies(10).map((s) => trendDigest({ id: s.id, name: 'refund', recordedAt: s.recordedAt, pipelineVersion: 'v1', tags: [] }, s.results)), { grouping: { by: 'week' } });
    const html = renderReport(session, { fixes: REFUND_FIXES, audit, comparison: { against: 'before', comparison: COMPARISON }, trends: { pipeline: 'refund', trends } });
    const ids = [...html.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]);
    const listed = [...summarySections(), ...drillDownSections()];
    expect(ids.slice(ids.length - listed.length)).toEqual(listed);
    expect(listed).toEqual(['batch', 'contrast', 'baselines', 'repairs', 'compare', 'audit', 'trends', 'cases']);
    // The trends section: the headline, the static chart, the drifting step named.
    const section = html.slice(html.indexOf('<section id="trends"'), html.indexOf('</section>', html.indexOf('<section id="trends"')));
    expect(section).toContain(trends.headline!);
    expect(section).toContain('<svg class="chart trend"');
    expect(section).toContain('retriever (drifts)');
    // Before them only the header's own sections (the study and its fixes).
    expect(ids.slice(0, ids.length - listed.length).every((id) => !listed.includes(id as (typeof listed)[number]))).toBe(true);
  });
});
