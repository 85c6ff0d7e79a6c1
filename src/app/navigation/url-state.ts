/**
 * What the address carries: the view, the open case, the case list's filter and sort, the compare
 * target, where the study comes from (a stored session, a demo) and the settings that define it
 * (the fix each step uses among them).
 * Kept in the hash (`#view=case&case=c7&…`), so a link reopens the same view and Back/Forward
 * move between views without reloading; `?trace=` and `?workers=` stay in the search part.
 */
import type { AnalysisSettings } from '../../engine/types.ts';
import type { CaseSort } from '../views/case-rows.ts';
import { addressEntries } from '../../engine/settings/schema.ts';
import { settingsFromParams, settingText } from './address-settings.ts';
import { readTrendSelection, writeTrendSelection, type TrendSelection } from '../trends/trend-selection.ts';

export interface UrlState {
  view: string;
  caseId: string | null;
  filter: string;
  onlyFailing: boolean;
  sort: CaseSort;
  /** The stored session to reopen (this browser's IndexedDB). */
  session: string | null;
  /** The demo to reopen. */
  demo: string | null;
  /** The stored session compared with the open one. */
  compare: string | null;
  /** What the Trends view shows (`trends=week&trendsName=…&trendsTag=…`). */
  trends: TrendSelection | null;
  /** Settings that differ from the defaults, to reapply to a study opened from a file. */
  settings: Partial<AnalysisSettings>;
  /** The first setting the address holds that its bounds refuse (then `settings` is empty), naming the key. */
  settingsProblem?: string;
}

export const DEFAULT_SORT: CaseSort = { by: 'status' };

export function emptyUrlState(): UrlState {
  return { view: 'batch', caseId: null, filter: '', onlyFailing: false, sort: DEFAULT_SORT, session: null, demo: null, compare: null, trends: null, settings: {} };
}

/**
 * The fix each step uses (`fixChoice`) goes as one `fix.<step>=<fix>` entry per chosen step, so
 * any step name (even one holding `=` or `&`) round-trips through URLSearchParams' encoding.
 */
const FIX_PREFIX = 'fix.';

function sortText(sort: CaseSort): string {
  return sort.by === 'step' ? `step:${sort.dir}:${sort.step}` : sort.by;
}

function parseSort(text: string): CaseSort {
  if (text === 'id' || text === 'status') return { by: text };
  const match = /^step:(asc|desc):(.+)$/.exec(text);
  return match ? { by: 'step', dir: match[1] as 'asc' | 'desc', step: match[2] } : DEFAULT_SORT;
}

/** The hash for a state (without '#'); defaults are left out so links stay short. */
export function toHash(state: UrlState): string {
  const params = new URLSearchParams();
  if (state.session) params.set('session', state.session);
  if (state.demo) params.set('demo', state.demo);
  if (state.view !== 'batch') params.set('view', state.view);
  if (state.caseId !== null) params.set('case', state.caseId);
  if (state.filter !== '') params.set('filter', state.filter);
  if (state.onlyFailing) params.set('failing', '1');
  if (sortText(state.sort) !== sortText(DEFAULT_SORT)) params.set('sort', sortText(state.sort));
  if (state.compare) params.set('compare', state.compare);
  if (state.trends) writeTrendSelection(state.trends, params);
  for (const [key] of addressEntries()) {
    const value = state.settings[key];
    if (value !== undefined && value !== null) params.set(key, settingText(value));
  }
  for (const [step, fix] of Object.entries(state.settings.fixChoice ?? {})) params.set(`${FIX_PREFIX}${step}`, fix);
  return params.toString();
}

/** Reads a hash (with or without '#'); anything unknown or malformed falls back to the default, and a setting out of its bounds drops the link's settings with the problem named. */
export function fromHash(hash: string): UrlState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state = emptyUrlState();
  state.view = params.get('view') ?? 'batch';
  state.caseId = params.get('case');
  state.filter = params.get('filter') ?? '';
  state.onlyFailing = params.get('failing') === '1';
  state.sort = parseSort(params.get('sort') ?? '');
  state.session = params.get('session');
  state.demo = params.get('demo');
  state.compare = params.get('compare');
  state.trends = readTrendSelection(params);
  const read = settingsFromParams(params);
  state.settings = read.settings;
  if (read.problem !== undefined) state.settingsProblem = read.problem;
  else {
    // fromEntries defines own properties, so a step named `__proto__` stays a step.
    const fixes = Object.fromEntries([...params].filter(([key]) => key.startsWith(FIX_PREFIX) && key.length > FIX_PREFIX.length).map(([key, fix]) => [key.slice(FIX_PREFIX.length), fix]));
    if (Object.keys(fixes).length > 0) state.settings.fixChoice = fixes;
  }
  return state;
}

/** The settings that differ from `defaults` (what a link needs to carry); an optional one absent from both differs only from its schema default. */
export function changedSettings(settings: AnalysisSettings, defaults: AnalysisSettings): Partial<AnalysisSettings> {
  const out: Record<string, unknown> = {};
  for (const [key, setting] of addressEntries()) if (settings[key] !== undefined && settings[key] !== (defaults[key] ?? setting.default)) out[key] = settings[key];
  if (settings.fixChoice && Object.keys(settings.fixChoice).length > 0) out.fixChoice = settings.fixChoice;
  return out as Partial<AnalysisSettings>;
}
