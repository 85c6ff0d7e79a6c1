/**
 * The views of an open study, in tab order. One list drives the tabs, the panels, the keyboard
 * shortcuts and the page title: adding a view is adding an entry here.
 */
import type { Component } from 'svelte';
import BatchPanel from '../panels/BatchPanel.svelte';
import CasePanel from '../panels/CasePanel.svelte';
import CasesPanel from '../panels/CasesPanel.svelte';
import DefinitionPanel from '../panels/DefinitionPanel.svelte';
import CompareView from '../compare/CompareView.svelte';
import AuditView from '../audit/AuditView.svelte';
import ReplayView from '../replay/ReplayView.svelte';
import { recordingOf } from '../replay/recording-of.ts';
import type { ViewContext } from './view-context.svelte.ts';

export interface ViewEntry {
  id: string;
  /** The tab's label (and the page title's view name). */
  label: (ctx: ViewContext) => string;
  component: Component<{ ctx: ViewContext }>;
  /** Whether the view has a tab for this study right now. */
  visible: (ctx: ViewContext) => boolean;
}

export const VIEWS: readonly ViewEntry[] = [
  { id: 'batch', label: () => 'Batch', component: BatchPanel, visible: () => true },
  { id: 'cases', label: (ctx) => `Cases (${ctx.ids.length})`, component: CasesPanel, visible: () => true },
  { id: 'case', label: (ctx) => `Case ${ctx.nav.caseId ?? ''}`, component: CasePanel, visible: (ctx) => ctx.nav.caseId !== null },
  {
    id: 'definition',
    label: (ctx) => (ctx.runner.definition.status === 'error' || ctx.runner.editProblem ? 'Definition ⚠' : 'Definition'),
    component: DefinitionPanel,
    visible: (ctx) => ctx.runner.study?.pipeline !== undefined,
  },
  { id: 'compare', label: () => 'Compare', component: CompareView, visible: (ctx) => ctx.compare !== null },
  { id: 'audit', label: () => 'Audit', component: AuditView, visible: (ctx) => ctx.runner.study !== null },
  { id: 'replay', label: () => 'Replay', component: ReplayView, visible: (ctx) => recordingOf(ctx.runner.study?.cases[0]) !== null },
];

/** The views with a tab now. */
export function visibleViews(ctx: ViewContext): ViewEntry[] {
  return VIEWS.filter((view) => view.visible(ctx));
}

/** The entry to show for `id`: itself when visible, else the batch view (a stale link, a closed case). */
export function viewToShow(ctx: ViewContext, id: string): ViewEntry {
  return visibleViews(ctx).find((view) => view.id === id) ?? VIEWS[0];
}
