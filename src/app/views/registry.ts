/**
 * The views of an open study, in tab order. One list drives the tabs, the panels, the keyboard
 * shortcuts and the page title, and the report's sections: adding a view is adding an entry to
 * session/views.ts (its id and report sections) and its page part here.
 */
import type { Component } from 'svelte';
import BatchPanel from '../panels/BatchPanel.svelte';
import CasePanel from '../panels/CasePanel.svelte';
import CasesPanel from '../panels/CasesPanel.svelte';
import DefinitionPanel from '../panels/DefinitionPanel.svelte';
import CompareView from '../compare/CompareView.svelte';
import AuditView from '../audit/AuditView.svelte';
import ReplayView from '../replay/ReplayView.svelte';
import TrendsView from '../trends/TrendsView.svelte';
import { recordingOf } from '../replay/recording-of.ts';
import type { ViewContext } from './view-context.svelte.ts';
import { STUDY_VIEWS, type StudyViewId } from '../../session/views.ts';

export interface ViewEntry {
  id: string;
  /** The tab's label (and the page title's view name). */
  label: (ctx: ViewContext) => string;
  component: Component<{ ctx: ViewContext }>;
  /** Whether the view has a tab for this study right now. */
  visible: (ctx: ViewContext) => boolean;
}

/** What the page adds to each view of the list: its label, component and visibility. */
const PAGE_VIEWS: Record<StudyViewId, Omit<ViewEntry, 'id'>> = {
  batch: { label: () => 'Batch', component: BatchPanel, visible: () => true },
  cases: { label: (ctx) => `Cases (${ctx.ids.length})`, component: CasesPanel, visible: () => true },
  case: { label: (ctx) => `Case ${ctx.nav.caseId ?? ''}`, component: CasePanel, visible: (ctx) => ctx.nav.caseId !== null },
  definition: {
    label: (ctx) => (ctx.runner.definition.status === 'error' || ctx.runner.editProblem ? 'Definition ⚠' : 'Definition'),
    component: DefinitionPanel,
    visible: (ctx) => ctx.runner.study?.pipeline !== undefined,
  },
  compare: { label: () => 'Compare', component: CompareView, visible: (ctx) => ctx.compare !== null },
  audit: { label: () => 'Audit', component: AuditView, visible: (ctx) => ctx.runner.study !== null },
  replay: { label: () => 'Replay', component: ReplayView, visible: (ctx) => recordingOf(ctx.runner.study?.cases[0]) !== null },
  trends: { label: () => 'Trends', component: TrendsView, visible: (ctx) => ctx.trends !== null && ctx.runner.study !== null },
};

/** The views in tab order: the order of the study's views list (session/views.ts), which the report's sections follow too. */
export const VIEWS: readonly ViewEntry[] = STUDY_VIEWS.map((view) => ({ id: view.id, ...PAGE_VIEWS[view.id] }));

/** The views with a tab now. */
export function visibleViews(ctx: ViewContext): ViewEntry[] {
  return VIEWS.filter((view) => view.visible(ctx));
}

/** The entry to show for `id`: itself when visible, else the batch view (a stale link, a closed case). */
export function viewToShow(ctx: ViewContext, id: string): ViewEntry {
  return visibleViews(ctx).find((view) => view.id === id) ?? VIEWS[0];
}
