/**
 * The autosave logic behind the Svelte `SessionAutosave` class, free of runes so it is unit-tested
 * in Node. It keeps the open session, saves it a short while after each change (debounced),
 * appends finished cases cheaply during an analysis, follows changes made in other tabs, and
 * keeps the "Recent sessions" list and the resume offers up to date.
 *
 * Nothing is dropped on a failed save: the local copy stays in memory and stays dirty, so
 * `retry()` (after the user frees space) or `saveAsCopy()` (after a conflict) still has it all.
 */
import type { CaseResult } from '../engine/types.ts';
import type { SessionChange } from './channel.ts';
import { SessionNotFoundError, StaleWriteError, StorageFullError } from './errors.ts';
import { mergeSessions, unionResults } from './merge-session.ts';
import type { RunLocks } from './run-lock.ts';
import type { SessionStore } from './store.ts';
import type { Session, SessionSummary } from './types.ts';

/**
 * - `saved`: everything is stored. `pending`: a save is scheduled. `saving`: one is running.
 * - `error`: the last save failed (`error` says why; StorageFullError means the disk quota).
 * - `conflict`: another tab changed the same fields; `deleted`: another tab deleted the session.
 */
export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'error' | 'conflict' | 'deleted';

export interface AutosaveView {
  session: Session | null;
  saveState: SaveState;
  error: Error | null;
  recent: SessionSummary[];
  resumeCandidates: SessionSummary[];
}

export interface AutosaveOptions {
  /** Debounce delay in ms (default 400). */
  delayMs?: number;
  /** Timer, injectable for tests; returns a cancel function. */
  schedule?: (run: () => void, ms: number) => () => void;
  runLocks?: RunLocks | null;
  /** Called after every change to the view. */
  onChange: (view: AutosaveView) => void;
}

const MAX_REBASES = 3;

export class AutosaveCore {
  readonly #store: SessionStore;
  readonly #delayMs: number;
  readonly #schedule: (run: () => void, ms: number) => () => void;
  readonly #runLocks: RunLocks | null;
  readonly #onChange: (view: AutosaveView) => void;
  readonly #unsubscribe: () => void;

  #view: AutosaveView = { session: null, saveState: 'idle', error: null, recent: [], resumeCandidates: [] };
  /** The session as last read from or written to the store: the base of a three-way merge. */
  #base: Session | null = null;
  #bodyDirty = false;
  /** Counts update() calls, so a save knows whether the fields changed again while it ran. */
  #bodyVersion = 0;
  #replaceResults = false;
  #pendingResults = new Map<string, CaseResult>();
  #cancelTimer: (() => void) | null = null;
  /** Saves run one at a time, in order. */
  #queue: Promise<void> = Promise.resolve();
  #runLock: { id: string; release: () => void } | null = null;

  constructor(store: SessionStore, options: AutosaveOptions) {
    this.#store = store;
    this.#delayMs = options.delayMs ?? 400;
    this.#schedule = options.schedule ?? ((run, ms) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    });
    this.#runLocks = options.runLocks ?? null;
    this.#onChange = options.onChange;
    this.#unsubscribe = store.subscribe((change) => void this.#onStoreChange(change));
  }

  get view(): AutosaveView {
    return this.#view;
  }

  /** Whether some change is not stored yet. */
  get dirty(): boolean {
    return this.#bodyDirty || this.#pendingResults.size > 0;
  }

  /** Reloads "Recent sessions" and the interrupted sessions offered for resume. */
  async refreshList(): Promise<void> {
    const [recent, resumeCandidates] = await Promise.all([this.#store.list(), this.#store.listInterrupted()]);
    const openId = this.#view.session?.id;
    this.#set({ recent, resumeCandidates: resumeCandidates.filter((s) => s.id !== openId) });
  }

  /** Stores a new session (from an import or a fresh analysis) and makes it the open one. */
  async create(session: Session): Promise<Session> {
    await this.flush();
    const saved = await this.#store.put({ ...session, revision: 0 });
    this.#adopt(saved);
    this.#set({ saveState: 'saved', error: null });
    await this.#syncRunLock();
    return saved;
  }

  /** Stores an imported session under a fresh id if its own is taken, and opens it. */
  async importSession(session: Session): Promise<Session> {
    await this.flush();
    const saved = await this.#store.importSession(session);
    this.#adopt(saved);
    this.#set({ saveState: 'saved', error: null });
    return saved;
  }

  /** Opens a stored session (from the list or a resume offer). */
  async open(id: string): Promise<Session> {
    await this.flush();
    const session = await this.#store.get(id);
    if (session === undefined) throw new SessionNotFoundError(id);
    this.#adopt(session);
    this.#set({ saveState: 'saved', error: null });
    await this.refreshList();
    return session;
  }

  /** Closes the open session (after saving what is pending). */
  async closeSession(): Promise<void> {
    await this.flush();
    this.#releaseRunLock();
    this.#adopt(null);
    this.#set({ saveState: 'idle', error: null });
  }

  /**
   * Changes the open session (name, status, settings, batch ...); saved after the delay.
   * Pass `replaceResults` when an analysis restarts with new settings (old results go).
   */
  update(change: (session: Session) => Session, options: { replaceResults?: boolean } = {}): void {
    const current = this.#view.session;
    if (current === null) throw new Error('No session is open to update.');
    const next = change(current);
    if (options.replaceResults) {
      this.#replaceResults = true;
      this.#pendingResults.clear();
    }
    this.#bodyDirty = true;
    this.#bodyVersion += 1;
    this.#set({ session: next });
    void this.#syncRunLock();
    this.#scheduleSave();
  }

  /** Adds finished cases to the open session; stored per case after the delay. */
  appendResults(results: readonly CaseResult[]): void {
    const current = this.#view.session;
    if (current === null) throw new Error('No session is open to add results to.');
    if (results.length === 0) return;
    for (const result of results) this.#pendingResults.set(result.id, result);
    this.#set({ session: { ...current, results: unionResults(current.results, results) } });
    this.#scheduleSave();
  }

  /** Saves now whatever is pending (also used before unload and after a failed save). */
  flush(): Promise<void> {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#queue = this.#queue.then(() => this.#save());
    return this.#queue;
  }

  /** Tries the failed save again (after the user freed space). */
  retry(): Promise<void> {
    return this.flush();
  }

  /**
   * Stores the open session under a new id (after a conflict or when another tab deleted it),
   * so the work in this tab is kept without touching the other tab's version.
   */
  async saveAsCopy(name?: string): Promise<Session> {
    const current = this.#view.session;
    if (current === null) throw new Error('No session is open to copy.');
    this.#cancelTimer?.();
    const now = new Date().toISOString();
    const copy: Session = { ...current, id: crypto.randomUUID(), name: name ?? `${current.name} (copy)`, createdAt: now, revision: 0 };
    const saved = await this.#store.put(copy);
    this.#adopt(saved);
    this.#set({ saveState: 'saved', error: null });
    await this.#syncRunLock();
    return saved;
  }

  /** Drops this tab's unsaved changes and loads the stored version (after a conflict). */
  async reload(): Promise<Session | null> {
    const current = this.#view.session;
    if (current === null) return null;
    this.#cancelTimer?.();
    this.#bodyDirty = false;
    this.#pendingResults.clear();
    this.#replaceResults = false;
    const stored = await this.#store.get(current.id);
    this.#adopt(stored ?? null);
    this.#set({ saveState: stored ? 'saved' : 'idle', error: null });
    return stored ?? null;
  }

  /** Stops following the store; call when the page goes away (after flush). */
  dispose(): void {
    this.#cancelTimer?.();
    this.#unsubscribe();
    this.#releaseRunLock();
  }

  #set(patch: Partial<AutosaveView>): void {
    this.#view = { ...this.#view, ...patch };
    this.#onChange(this.#view);
  }

  #adopt(session: Session | null): void {
    this.#base = session;
    this.#bodyDirty = false;
    this.#replaceResults = false;
    this.#pendingResults.clear();
    this.#set({ session });
  }

  #scheduleSave(): void {
    this.#set({ saveState: 'pending' });
    this.#cancelTimer?.();
    this.#cancelTimer = this.#schedule(() => {
      this.#cancelTimer = null;
      void this.flush();
    }, this.#delayMs);
  }

  async #save(): Promise<void> {
    const current = this.#view.session;
    if (current === null || !this.dirty) return;
    this.#set({ saveState: 'saving' });
    try {
      if (this.#bodyDirty) await this.#saveBody();
      else await this.#saveResults(current);
      if (this.#view.saveState === 'saving') this.#set({ saveState: this.dirty ? 'pending' : 'saved', error: null });
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Appends only the finished cases: the cheap path during an analysis. */
  async #saveResults(current: Session): Promise<void> {
    const results = [...this.#pendingResults.values()];
    this.#pendingResults.clear();
    try {
      await this.#store.putResults(current.id, results);
    } catch (error) {
      for (const result of results) if (!this.#pendingResults.has(result.id)) this.#pendingResults.set(result.id, result);
      throw error;
    }
  }

  /**
   * A full save of the open session. On a stale revision it merges with the other tab's stored
   * version (see mergeSessions) and tries again; differing edits of the same field are a conflict.
   */
  async #saveBody(): Promise<void> {
    for (let rebase = 0; ; rebase += 1) {
      const attempt = this.#view.session;
      if (attempt === null) return;
      const bodyVersion = this.#bodyVersion;
      const coveredResults = new Map(this.#pendingResults);
      const replaceResults = this.#replaceResults;
      try {
        const saved = await this.#store.put(attempt, { replaceResults });
        this.#base = saved;
        if (this.#bodyVersion === bodyVersion) this.#bodyDirty = false;
        if (replaceResults) this.#replaceResults = false;
        // The full save stored the results `attempt` had; ones finished meanwhile stay pending.
        for (const [id, result] of coveredResults) {
          if (this.#pendingResults.get(id) === result) this.#pendingResults.delete(id);
        }
        const latest = this.#view.session;
        const stamp = { revision: saved.revision, updatedAt: saved.updatedAt };
        this.#set({ session: latest === attempt || latest === null ? saved : { ...latest, ...stamp } });
        return;
      } catch (error) {
        if (!(error instanceof StaleWriteError) || rebase >= MAX_REBASES || this.#base === null) throw error;
        const stored = await this.#store.get(attempt.id);
        if (stored === undefined) throw new SessionNotFoundError(attempt.id);
        const outcome = mergeSessions(this.#base, this.#view.session ?? attempt, stored);
        if ('conflicts' in outcome) throw new ConflictError(attempt.id, outcome.conflicts);
        this.#base = stored;
        this.#set({ session: outcome.merged });
      }
    }
  }

  #fail(error: unknown): void {
    if (error instanceof ConflictError || error instanceof StaleWriteError) {
      this.#set({ saveState: 'conflict', error });
    } else if (error instanceof SessionNotFoundError) {
      this.#set({ saveState: 'deleted', error });
    } else {
      this.#set({ saveState: 'error', error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  /** Another tab (or this store) changed something: refresh the list, follow the open session. */
  async #onStoreChange(change: SessionChange): Promise<void> {
    await this.refreshList().catch(() => {});
    const current = this.#view.session;
    if (!change.remote || current === null || change.id !== current.id) return;
    if (change.kind === 'deleted') {
      this.#set({ saveState: 'deleted', error: new SessionNotFoundError(current.id) });
      return;
    }
    // Adopt the other tab's version when this tab has no unsaved field changes of its own.
    if (change.revision > current.revision && !this.#bodyDirty) {
      const stored = await this.#store.get(current.id);
      if (stored === undefined || this.#bodyDirty || this.#view.session?.id !== stored.id) return;
      const local = this.#view.session;
      this.#base = stored;
      this.#set({ session: { ...stored, results: unionResults(stored.results, local?.results ?? []) } });
    }
  }

  /** Holds this session's run lock while it is running here, so other tabs do not offer to resume it. */
  async #syncRunLock(): Promise<void> {
    const session = this.#view.session;
    const wanted = session !== null && session.status === 'running' ? session.id : null;
    if (this.#runLock?.id === wanted) return;
    this.#releaseRunLock();
    if (wanted === null || this.#runLocks === null) return;
    const lock = await this.#runLocks.hold(wanted);
    if (lock.acquired) this.#runLock = { id: wanted, release: lock.release };
  }

  #releaseRunLock(): void {
    this.#runLock?.release();
    this.#runLock = null;
  }
}

/** Another tab changed the same fields of the open session differently. */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  constructor(
    readonly sessionId: string,
    readonly fields: readonly string[],
  ) {
    super(
      `Another tab changed this session's ${fields.join(', ')} too. Save your version as a copy, or reload the other tab's version.`,
    );
  }
}

export { StorageFullError };
