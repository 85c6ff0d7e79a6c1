/**
 * Keeps the address and the page title in step with the open study and its view: a change of
 * view, case or study is a new history entry (so Back and Forward move between views inside the
 * app), a change of filter, sort or settings replaces the current one. On load and on Back/Forward
 * the address is applied: the view and list state, and the study (a stored session of this
 * browser, else the demo or `?trace=` file it names, with the link's settings).
 */
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { validateSettings } from '../../session/validate-settings.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';
import type { SessionSync } from '../state/session-sync.svelte.ts';
import type { Notice, StudyOpener } from '../state/study-opener.svelte.ts';
import { traceResponseProblem, traceUrlFromQuery } from '../landing/trace-param.ts';
import type { Navigation } from './navigation.svelte.ts';
import { changedSettings, fromHash, toHash, type UrlState } from './url-state.ts';
import { parseRunsHash } from '../runs/runs-address.svelte.ts';

export interface UrlSyncDeps {
  runner: AnalysisRunner;
  nav: Navigation;
  opener: StudyOpener;
  sync: SessionSync;
  /** The label of the view shown (from the views registry). */
  viewLabel: () => string;
  /**
   * The run view is shown, or a study is being opened from it: the run view keeps its own address
   * (`#runs/...`, `#blame/...`: src/app/runs/runs-address.svelte.ts) until the study is in front.
   */
  runViewHolds?: () => boolean;
}

export class UrlSync {
  readonly #deps: UrlSyncDeps;
  /**
   * Openings from the address still in progress, counting the address the page was opened with
   * until start() has applied it (it is not overwritten before). While one runs, what is shown is
   * half-way (no study yet, or a study not yet linked to its demo); writing that would push a
   * stray entry (the start page) into the history and drop the link's demo.
   */
  #applying = $state(1);

  constructor(deps: UrlSyncDeps) {
    this.#deps = deps;
  }

  /** The address state of what is shown now. */
  current(): UrlState {
    const { runner, nav, opener, sync } = this.#deps;
    return {
      view: nav.view,
      caseId: nav.caseId,
      filter: nav.filter,
      onlyFailing: nav.onlyFailing,
      sort: nav.sort,
      session: sync.identity?.id ?? null,
      demo: opener.demo,
      compare: nav.compareId,
      trends: nav.trends,
      settings: opener.demo !== null || traceQuery() !== null ? changedSettings(runner.settings, DEFAULT_SETTINGS) : {},
    };
  }

  /** The page title: the study and view, or the app's name on the start page. */
  title(): string {
    const { runner, sync } = this.#deps;
    if (!runner.study) return 'agentblame';
    return `${sync.identity?.name ?? runner.study.name} · ${this.#deps.viewLabel()} · agentblame`;
  }

  /** Writes the address and title whenever what is shown changes (call inside an effect). */
  write(): void {
    const title = this.title();
    if (document.title !== title) document.title = title;
    if (this.#applying > 0) return;
    const state = this.#deps.runner.study ? this.current() : null;
    // The run view keeps its own address; a study opened from it (a replay) has the study's.
    if (this.#deps.runViewHolds ? this.#deps.runViewHolds() : parseRunsHash(location.hash) !== null) return;
    const hash = state ? toHash(state) : '';
    if (hash === location.hash.replace(/^#/, '')) return;
    const previous = fromHash(location.hash);
    const url = `${location.pathname}${location.search}${hash === '' ? '' : `#${hash}`}`;
    const newPlace = !state || previous.view !== state.view || previous.caseId !== state.caseId || previous.session !== state.session;
    if (newPlace) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  /** Applies the address on load; resolves once the study it names is open (not analysed). */
  async start(): Promise<void> {
    const { sync } = this.#deps;
    await sync.init();
    const opening = this.apply(fromHash(location.hash), true);
    window.addEventListener('popstate', () => {
      if (parseRunsHash(location.hash) === null) void this.apply(fromHash(location.hash), false);
    });
    try {
      await opening;
    } finally {
      this.#applying--;
    }
  }

  /** Shows what `state` names: its study (opened if another one), then its view. */
  async apply(state: UrlState, initial: boolean): Promise<void> {
    this.#applying++;
    try {
      await this.#apply(state, initial);
    } finally {
      this.#applying--;
    }
  }

  async #apply(state: UrlState, initial: boolean): Promise<void> {
    const { runner, nav, opener, sync } = this.#deps;
    const setNavigation = () => {
      nav.view = state.view;
      nav.caseId = state.caseId;
      nav.filter = state.filter;
      nav.onlyFailing = state.onlyFailing;
      nav.sort = state.sort;
      nav.compareId = state.compare;
      nav.trends = state.trends;
    };
    const sameStudy = runner.study !== null && (state.session === null || state.session === sync.identity?.id);
    if (sameStudy && (state.session !== null || state.demo !== null || !initial)) {
      if (state.session === null && state.demo === null) {
        // Back to the start page.
        opener.close();
        return;
      }
      setNavigation();
      return;
    }
    const { settings, ignored } = this.#linkSettings(state);
    if (ignored) opener.notice = ignored;
    // The study opens in the background (its analysis may take a while); the view is set first.
    let opened: Promise<unknown> | null = null;
    // Back from another study: that one is open until this one replaces it, and is not it.
    const before = runner.study;
    setNavigation();
    if (state.session !== null && (await sync.store?.get(state.session))) {
      // A link to a stored demo session keeps naming the demo, for browsers without the session.
      opened = opener.openStored(state.session, { keepNavigation: true, demo: state.demo });
    } else if (traceQuery() !== null) {
      opened = this.#openTraceQuery(settings);
    } else if (state.demo !== null) {
      opened = opener.openDemo(state.demo, { settings, keepNavigation: true });
    } else if (state.session !== null && initial) {
      // A link to a study opened in another browser (or whose storage was cleared, or whose
      // definition never loaded, so it was never stored): nothing here can reopen it but its file.
      opener.notice = {
        title: 'This link names a session that is not in this browser',
        problem: { message: "A study opened from your own file is kept only in the browser where it was opened (nothing is uploaded), and only once its definition loads: a reload of one whose definition failed to load finds nothing kept. Open the session file or report exported from where it was opened, or open the trace or definition again here." },
        action: { label: 'Open a session or report file…', run: () => document.querySelector<HTMLInputElement>('input[type=file]')?.click() },
      };
    } else if (!initial && runner.study) {
      opener.close();
    }
    if (opened) await waitUntil(() => runner.study !== null && runner.study !== before, opened);
    // Opening a file clears the banner: the ignored settings are named again once the study is open.
    if (ignored && opener.notice === null) opener.notice = ignored;
  }

  /** The link's settings, checked like a session file's; a bad one is named in the banner and ignored. */
  #linkSettings(state: UrlState): { settings: Partial<UrlState['settings']>; ignored?: Notice } {
    if (state.settingsProblem !== undefined) return { settings: {}, ignored: { title: 'Ignored the settings in the address', problem: { message: state.settingsProblem } } };
    if (Object.keys(state.settings).length === 0) return { settings: {} };
    try {
      validateSettings({ ...DEFAULT_SETTINGS, ...state.settings }, 'address');
      return { settings: state.settings };
    } catch (error) {
      return { settings: {}, ignored: { title: 'Ignored the settings in the address', problem: { message: (error as Error).message } } };
    }
  }

  async #openTraceQuery(settings: UrlState['settings']): Promise<void> {
    const { opener } = this.#deps;
    const found = traceQuery();
    if (found === null) return;
    if ('error' in found) {
      opener.notice = { title: 'Could not open the trace from the address', problem: { message: found.error } };
      return;
    }
    try {
      const response = await fetch(found.url, { credentials: 'same-origin', mode: 'same-origin' });
      const problem = traceResponseProblem(found.url, { ok: response.ok, status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') });
      if (problem !== null) throw new Error(problem);
      await opener.openSource(await response.blob(), decodeURIComponent(found.url.pathname.split('/').pop() || 'trace.json'), { settings, keepNavigation: true });
    } catch (error) {
      opener.notice = { title: 'Could not open the trace from the address', problem: { message: (error as Error).message } };
    }
  }
}

function traceQuery(): ReturnType<typeof traceUrlFromQuery> {
  return traceUrlFromQuery(location.search, location.href);
}

/** Resolves when `ready()` holds (polled each frame) or `done` settles, whichever is first. */
function waitUntil(ready: () => boolean, done: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    let finished = false;
    void done.finally(() => {
      finished = true;
      resolve();
    });
    const poll = () => {
      if (finished) return;
      if (ready()) resolve();
      else requestAnimationFrame(poll);
    };
    poll();
  });
}
