/**
 * The views of an open study, in tab order, and the report sections that show what each view
 * shows: one list for the page's tabs (app/views/registry.ts adds each view's label, component and
 * visibility) and the report's sections (report/renderReport.ts), so a view and its place in the
 * report are added together. Pure data: the page and the report both read it.
 */

/**
 * Where a section sits in the report: the findings first (what is blamed, by Shapley or by the
 * contrast of a replay), then the evidence beside them, then the per-case drill-down, which is cut
 * to the report's size target and so comes last.
 */
export const REPORT_PARTS = ['findings', 'evidence', 'drill-down'] as const;
export type ReportPart = (typeof REPORT_PARTS)[number];

export interface ReportSectionSpec {
  readonly section: string;
  readonly part: ReportPart;
}

export interface StudyViewSpec {
  readonly id: string;
  /** The report sections showing this view's content (none: the report has no place for it, as said beside it). */
  readonly report: readonly ReportSectionSpec[];
}

export const STUDY_VIEWS = [
  {
    id: 'batch',
    report: [
      { section: 'batch', part: 'findings' },
      { section: 'baselines', part: 'evidence' },
      { section: 'repairs', part: 'evidence' },
    ],
  },
  { id: 'cases', report: [{ section: 'cases', part: 'drill-down' }] },
  // One case: the report's drill-down opens each case in place.
  { id: 'case', report: [] },
  // The code: the report carries it in its embedded session, for the workbench to show.
  { id: 'definition', report: [] },
  { id: 'compare', report: [{ section: 'compare', part: 'evidence' }] },
  { id: 'audit', report: [{ section: 'audit', part: 'evidence' }] },
  // The replay's single-step contrast is a ranking of its own, so it sits beside the Shapley one.
  { id: 'replay', report: [{ section: 'contrast', part: 'findings' }] },
  // The stored studies of the same pipeline over time: evidence beside this study's ranking.
  { id: 'trends', report: [{ section: 'trends', part: 'evidence' }] },
] as const satisfies readonly StudyViewSpec[];

export type StudyViewId = (typeof STUDY_VIEWS)[number]['id'];
type SectionSpec = (typeof STUDY_VIEWS)[number]['report'][number];
type SummarySpec = Extract<SectionSpec, { part: 'findings' | 'evidence' }>;
type DrillDownSpec = Extract<SectionSpec, { part: 'drill-down' }>;
export type ReportSectionId = SectionSpec['section'];
/** The sections before the drill-down: findings, then evidence. */
export type SummarySectionId = SummarySpec['section'];
export type DrillDownSectionId = DrillDownSpec['section'];

/** Every view's report sections, in tab order. */
function sectionSpecs(): SectionSpec[] {
  return STUDY_VIEWS.flatMap((view): readonly SectionSpec[] => view.report);
}

/** The sections before the drill-down, in the order the report prints them: by part, then in the views' tab order. */
export function summarySections(): SummarySectionId[] {
  const summary = sectionSpecs().filter((spec): spec is SummarySpec => spec.part !== 'drill-down');
  return REPORT_PARTS.flatMap((part) => summary.filter((spec) => spec.part === part).map((spec) => spec.section));
}

/** The drill-down sections, in the views' tab order. */
export function drillDownSections(): DrillDownSectionId[] {
  return sectionSpecs().filter((spec): spec is DrillDownSpec => spec.part === 'drill-down').map((spec) => spec.section);
}
