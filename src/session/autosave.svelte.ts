/**
 * SessionAutosave: the reactive face of AutosaveCore for Svelte 5 components.
 *
 *   const autosave = await SessionAutosave.open();      // once, e.g. in the page's onMount
 *   await autosave.create(session);                      // a new study becomes a session
 *   autosave.update((s) => ({ ...s, status: 'running' })); // saved after a short delay
 *   autosave.appendResults([result]);                    // as cases finish (cheap per-case writes)
 *   autosave.session / saveState / error / recent / resumeCandidates   // read in markup
 *
 * The open session is `$state.raw`: it is replaced, never mutated, so views re-render on each
 * change without deep proxies over potentially large results.
 */
import { AutosaveCore, type AutosaveOptions, type SaveState } from './autosave-core.ts';
import { StorageFullError } from './errors.ts';
import { browserRunLocks } from './run-lock.ts';
import { SessionStore, type SessionStoreOptions } from './store.ts';
import type { Session, SessionSummary } from './types.ts';
import type { CaseResult } from '../engine/types.ts';

export class SessionAutosave {
  session = $state.raw<Session | null>(null);
  saveState = $state<SaveState>('idle');
  error = $state.raw<Error | null>(null);
  /** "Recent sessions", newest first (summaries only). */
  recent = $state.raw<SessionSummary[]>([]);
  /** Sessions interrupted mid-analysis (no live tab runs them): offer to resume. */
  resumeCandidates = $state.raw<SessionSummary[]>([]);
  /** The banner case: the last save hit the storage quota. */
  storageFull = $derived(this.error instanceof StorageFullError);

  readonly store: SessionStore;
  readonly #core: AutosaveCore;
  readonly #flushOnHide = () => void this.#core.flush();

  constructor(store: SessionStore, options: Omit<AutosaveOptions, 'onChange'> = {}) {
    this.store = store;
    this.#core = new AutosaveCore(store, {
      ...options,
      onChange: (view) => {
        this.session = view.session;
        this.saveState = view.saveState;
        this.error = view.error;
        this.recent = view.recent;
        this.resumeCandidates = view.resumeCandidates;
      },
    });
    // Save what is pending when the tab is hidden or closed (best effort: the browser may not wait).
    if (typeof window !== 'undefined') {
      window.addEventListener('pagehide', this.#flushOnHide);
      document.addEventListener('visibilitychange', this.#flushOnHide);
    }
  }

  /** Opens the store (with the browser's run locks) and loads the list. */
  static async open(options: SessionStoreOptions & { delayMs?: number } = {}): Promise<SessionAutosave> {
    const runLocks = options.runLocks ?? browserRunLocks();
    const store = await SessionStore.open({ ...options, runLocks });
    const autosave = new SessionAutosave(store, { runLocks, ...(options.delayMs !== undefined && { delayMs: options.delayMs }) });
    await autosave.refreshList();
    return autosave;
  }

  refreshList(): Promise<void> {
    return this.#core.refreshList();
  }
  create(session: Session): Promise<Session> {
    return this.#core.create(session);
  }
  importSession(session: Session): Promise<Session> {
    return this.#core.importSession(session);
  }
  open(id: string): Promise<Session> {
    return this.#core.open(id);
  }
  closeSession(): Promise<void> {
    return this.#core.closeSession();
  }
  update(change: (session: Session) => Session, options?: { replaceResults?: boolean }): void {
    this.#core.update(change, options);
  }
  appendResults(results: readonly CaseResult[]): void {
    this.#core.appendResults(results);
  }
  flush(): Promise<void> {
    return this.#core.flush();
  }
  retry(): Promise<void> {
    return this.#core.retry();
  }
  saveAsCopy(name?: string): Promise<Session> {
    return this.#core.saveAsCopy(name);
  }
  reload(): Promise<Session | null> {
    return this.#core.reload();
  }
  rename(id: string, name: string, expectedRevision?: number): Promise<SessionSummary> {
    return this.store.rename(id, name, expectedRevision);
  }
  delete(id: string): Promise<void> {
    return this.store.delete(id);
  }

  dispose(): void {
    if (typeof window !== 'undefined') {
      window.removeEventListener('pagehide', this.#flushOnHide);
      document.removeEventListener('visibilitychange', this.#flushOnHide);
    }
    this.#core.dispose();
    this.store.close();
  }
}
