/**
 * The page's face of the session autosave (src/session/autosave.ts, where the rules are): opens the
 * store, mirrors the autosave's identity and problems as runes, and builds the open study's session
 * for export and the report. A full disk or another tab's conflicting change becomes a banner;
 * nothing already stored is lost (the store rolls back failed writes).
 */
import { Autosave, type AutosaveView, type SessionIdentity } from '../../session/autosave.ts';
import { browserRunLocks } from '../../session/run-lock.ts';
import { SessionStore } from '../../session/store.ts';
import type { Session } from '../../session/types.ts';
import { sessionOf } from './session-of.ts';
import { studyMarkOf } from './study-mark-of.ts';
import type { AnalysisRunner } from './analysis-runner.svelte.ts';

export class SessionSync {
  /** The store, once IndexedDB is open (null where storage is unavailable). */
  store = $state.raw<SessionStore | null>(null);
  /** Why saving does not work or failed (an error, shown as a banner); null when all is well. */
  problem = $state.raw<unknown>(null);
  saving = $state(false);
  identity = $state.raw<SessionIdentity | null>(null);

  readonly #bench: AnalysisRunner;
  readonly #locks = browserRunLocks();
  readonly #autosave: Autosave;

  constructor(bench: AnalysisRunner) {
    this.#bench = bench;
    this.#autosave = new Autosave({
      current: (identity) => (this.#worthStoring(identity) ? this.#sessionOf(identity) : null),
      running: () => bench.running,
      runLocks: this.#locks,
      onChange: (view: AutosaveView) => {
        this.identity = view.identity;
        this.problem = view.problem;
        this.saving = view.saving;
      },
    });
  }

  async init(): Promise<void> {
    try {
      this.store = await SessionStore.open({ runLocks: this.#locks });
      this.#autosave.useStore(this.store);
      this.#flushWhenLeft();
    } catch (error) {
      this.problem = error;
    }
  }

  /** A new study was opened: it becomes a new session. */
  startNew(name: string): void {
    this.#autosave.startNew(name);
  }

  /** A stored session was opened: later saves continue it. */
  adopt(session: Session): void {
    this.#autosave.adopt(session);
  }

  /** The study is being closed (call before the runner forgets it): its last change is saved, then it is forgotten. */
  detach(): void {
    this.#autosave.detach();
  }

  /** Saves now what is pending (a study just opened). */
  flush(): void {
    void this.#autosave.flush();
  }

  /**
   * The autosave waits a moment between saves; a page that is hidden or left (a reload, a closed
   * tab, another app in front on a phone) saves what it has at once, the results not yet shown included.
   */
  #flushWhenLeft(): void {
    const save = () => {
      this.#bench.flushPending();
      void this.#autosave.flush();
    };
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') save();
    });
  }

  /** Saves soon (called on every change of the workbench). */
  schedule(): void {
    this.#autosave.schedule();
  }

  /** Tries the failed save again (after the user freed space). */
  retry(): void {
    void this.#autosave.retry();
  }

  rename(name: string): Promise<void> {
    return this.#autosave.rename(name);
  }

  /** The open study as a session (for export and the report), or null when nothing is open. */
  current(): Session | null {
    const study = this.#bench.study;
    if (!study) return null;
    return this.#sessionOf(this.identity ?? { id: crypto.randomUUID(), name: study.name, createdAt: new Date().toISOString(), revision: 0 });
  }

  /**
   * A new study is stored once its definition compiles: one that throws or does not parse while
   * loading is shown (the Definition view, at its line) but leaves nothing in Recent sessions; an
   * edit that compiles stores it then. A study of games is analysed without one, so it is stored.
   */
  #worthStoring(identity: SessionIdentity): boolean {
    const bench = this.#bench;
    if (identity.revision > 0 || !bench.study?.pipeline || bench.study.games.length > 0) return true;
    return bench.definition.status === 'ready';
  }

  #sessionOf(identity: SessionIdentity): Session | null {
    const bench = this.#bench;
    if (!bench.study) return null;
    // An interrupted analysis stays stored as running (with no tab holding its run lock), so it is offered for resume.
    const shown = bench.progress?.status ?? 'idle';
    const status: Session['status'] = shown === 'interrupted' ? 'running' : shown;
    // Only the current settings' results: the previous settings' ones stay on show until new ones arrive, never saved under the new.
    const results = bench.currentResults();
    // The batch choices go with the study (the study mark), so a reload aggregates and stops as before.
    const mark = studyMarkOf(bench.study, bench.settings, bench.batchBound, bench.batchStop, bench.batchStopRule);
    return sessionOf(identity, bench.study, bench.settings, results, bench.previousShown ? null : bench.batch, status, mark);
  }
}
