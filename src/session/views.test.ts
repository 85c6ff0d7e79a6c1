import { describe, expect, it } from 'vitest';
import { drillDownSections, STUDY_VIEWS, summarySections } from './views.ts';

describe('the study views list orders the report sections', () => {
  it('findings first (the batch ranking, then the replay contrast beside it), then the evidence in tab order, then the drill-down', () => {
    expect(STUDY_VIEWS.map((v) => v.id)).toEqual(['batch', 'cases', 'case', 'definition', 'compare', 'audit', 'replay', 'trends']);
    expect(summarySections()).toEqual(['batch', 'contrast', 'baselines', 'repairs', 'compare', 'audit', 'trends']);
    expect(drillDownSections()).toEqual(['cases']);
  });

  it('shows every section of the report once', () => {
    const sections = STUDY_VIEWS.flatMap((v) => v.report.map((r) => r.section));
    expect(new Set(sections).size).toBe(sections.length);
    expect([...summarySections(), ...drillDownSections()].sort()).toEqual([...sections].sort());
  });
});
