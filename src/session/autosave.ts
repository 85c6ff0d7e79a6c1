/**
 * The page's autosave, free of runes so it is unit-tested in Node with an injected timer: it saves
 * the open study to the session store a short while after each change, appends finished cases
 * cheaply while an analysis runs, and saves what is pending when the study is closed.
 *
 * Rules (docs/architecture.md, "Sessions and autosave"):
 * - Every write of this tab (a save, a rename, the last save on close) goes through one queue, in
 *   order, and reads the session's revision when it runs; so this tab never refuses its own write.
 * - A save writes only the fields the page changed since its last save (a three-way merge with the
 *   stored fields, see mergeFields). When another tab wrote meanwhile (StaleWriteError) the save
 *   merges with that tab's version: a field changed on one side takes that side's value, results are
 *   merged per case. Only the same field changed differently in both tabs keeps this tab's work as
 *   a copy ("... (copy)"), leaving the other tab's version untouched: nobody's work is lost.
 * - A change of name, settings, status or inputs writes the small records (the store rewrites the
 *   cases and game tables only when they are other arrays); during a run only new results are added.
 */
import type { CaseResult } from '../engine/types.ts';
import { SessionNotFoundError, StaleWriteError } from './errors.ts';
import { changedFields, fieldsOf, mergeFields, type SessionFields } from './merge-session.ts';
import type { RunLocks } from './run-lock.ts';
import type { SessionStore } from './store.ts';
import type { Session } from './types.ts';

/** The identity of the session the open study is saved as. */
export interface SessionIdentity {
  id: string;
  name: string;
  createdAt: string;
  revision: number;
}

/** What the page shows of the autosave. */
export interface AutosaveView {
  identity: SessionIdentity | null;
  /** Why saving failed or what it did about another tab (an error, shown as a banner); null when all is well. */
  problem: unknown;
  saving: boolean;
}

export type AutosaveStore = Pick<SessionStore, 'put' | 'putResults' | 'get'>;

export interface AutosaveOptions {
  /** The open work as a session under this identity (all its finished results), or null when none is open. */
  current: (identity: SessionIdentity) => Session | null;
  /** Whether an analysis is running (this tab holds the session's run lock meanwhile). */
  running?: () => boolean;
  runLocks?: RunLocks | null;
  /** Delay between a change and its save, in ms (default 600). */
  delayMs?: number;
  /** Timer, injectable for tests: runs `run` after `ms` and returns a cancel function. */
  timer?: (run: () => void, ms: number) => () => void;
  /** Clock for createdAt (ISO strings) and ids of new sessions, injectable for tests. */
  now?: () => string;
  newId?: () => string;
  onChange?: (view: AutosaveView) => void;
}

/** What one open session's saves know: the base of the three-way merge and the results stored. */
interface Tracked {
  identity: SessionIdentity;
  /** The page's fields at its last save (or as opened); null before the first save. */
  mineBase: SessionFields | null;
  /** The fields in the store after that save (or as opened); null before the first save. */
  stored: SessionFields | null;
  savedIds: Set<string>;
}

/** Saves merged after another tab's write before giving up (each retry reads the store again). */
const MAX_MERGES = 3;

/** Another tab changed the same fields of the open session differently; this tab's work went to a copy. */
export class SessionForkedError extends Error {
  override readonly name = 'SessionForkedError';
  constructor(readonly fields: readonly string[], readonly copyName: string) {
    super(`Another tab changed this session's ${fields.join(', ')} too, so your version is saved as "${copyName}"; the other tab's version is kept as it was.`);
  }
}

export class Autosave {
  readonly #options: AutosaveOptions;
  readonly #delayMs: number;
  readonly #timer: (run: () => void, ms: number) => () => void;
  readonly #now: () => string;
  readonly #newId: () => string;
  #store: AutosaveStore | null = null;
  #open: Tracked | null = null;
  #view: AutosaveView = { identity: null, problem: null, saving: false };
  #cancelTimer: (() => void) | null = null;
  /** This tab's writes, one at a time, in order. */
  #queue: Promise<void> = Promise.resolve();
  #runLock: { id: string; release: (() => void) | null } | null = null;

  constructor(options: AutosaveOptions) {
    this.#options = options;
    this.#delayMs = options.delayMs ?? 600;
    this.#timer =
      options.timer ??
      ((run, ms) => {
        const handle = setTimeout(run, ms);
        return () => clearTimeout(handle);
      });
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#newId = options.newId ?? (() => crypto.randomUUID());
  }

  get view(): AutosaveView {
    return this.#view;
  }

  /** Saving starts once the store is open (null where storage is unavailable). */
  useStore(store: AutosaveStore | null): void {
    this.#store = store;
  }

  /** A new study was opened: it becomes a new session (the previous one's pending change is saved first). */
  startNew(name: string): void {
    this.#finishOpen();
    this.#track({ identity: { id: this.#newId(), name, createdAt: this.#now(), revision: 0 }, mineBase: null, stored: null, savedIds: new Set() });
    this.schedule();
  }

  /** A stored session was opened (the page shows its fields): later saves continue it. */
  adopt(session: Session): void {
    this.#finishOpen();
    const fields = fieldsOf(session);
    this.#track({
      identity: { id: session.id, name: session.name, createdAt: session.createdAt, revision: session.revision },
      mineBase: fields,
      stored: session.revision > 0 ? fields : null,
      savedIds: new Set(session.results.map((r) => r.id)),
    });
  }

  /** The study was closed: its pending change is saved (from a snapshot taken now), then it is forgotten. */
  detach(): void {
    this.#finishOpen();
    this.#track(null);
  }

  /** Saves soon (called on every change of the page). Throttled, never pushed back: results are saved as they come. */
  schedule(): void {
    if (!this.#store || !this.#open) return;
    this.#syncRunLock();
    if (this.#cancelTimer) return;
    this.#cancelTimer = this.#timer(() => {
      this.#cancelTimer = null;
      void this.flush();
    }, this.#delayMs);
  }

  /**
   * Saves now whatever is pending; resolves when this tab's writes so far are done. Flushes asked
   * for while one is still waiting in the queue are that one (it reads the page when it runs), so
   * frequent flushes never pile up saves behind a slow write.
   */
  flush(): Promise<void> {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    const tracked = this.#open;
    if (tracked && this.#waiting !== tracked) {
      this.#waiting = tracked;
      this.#enqueue(() => {
        if (this.#waiting === tracked) this.#waiting = null;
        return this.#save(tracked, null);
      });
    }
    return this.#queue;
  }
  /** The session whose flush is queued and not started yet. */
  #waiting: Tracked | null = null;

  /** Tries the failed save again (after the user freed space). Nothing was lost meanwhile. */
  retry(): Promise<void> {
    this.#set({ problem: null });
    return this.flush();
  }

  /** Renames the open session: shown at once, saved now through the queue (never beside a save in flight). */
  rename(name: string): Promise<void> {
    const trimmed = name.trim();
    if (!this.#open || trimmed === '') return this.#queue;
    this.#open.identity = { ...this.#open.identity, name: trimmed };
    this.#set({ identity: this.#open.identity });
    return this.flush();
  }

  /** Resolves when every write queued so far is done. */
  idle(): Promise<void> {
    return this.#queue;
  }

  #track(tracked: Tracked | null): void {
    this.#open = tracked;
    this.#set({ identity: tracked?.identity ?? null });
    this.#syncRunLock();
  }

  /** Queues the last save of the open session, from the page as it is now. */
  #finishOpen(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    const tracked = this.#open;
    if (!tracked || !this.#store) return;
    const snapshot = this.#options.current(tracked.identity);
    if (snapshot) this.#enqueue(() => this.#save(tracked, snapshot));
  }

  #enqueue(job: () => Promise<void>): void {
    this.#queue = this.#queue.then(job);
  }

  #set(patch: Partial<AutosaveView>): void {
    this.#view = { ...this.#view, ...patch };
    this.#options.onChange?.(this.#view);
  }

  /** One save of `tracked`: from `snapshot` (a closed study) or from the page as it is now. */
  async #save(tracked: Tracked, snapshot: Session | null): Promise<void> {
    const store = this.#store;
    if (!store) return;
    const session = snapshot ?? (tracked === this.#open ? this.#options.current(tracked.identity) : null);
    if (!session) return;
    const mine = fieldsOf(session);
    // The batch follows the results: it is written with the next change of the other fields.
    const changed = changedFields(tracked.mineBase, mine).filter((field) => field !== 'batch');
    this.#set({ saving: true });
    try {
      if (changed.length > 0) await this.#saveFields(store, tracked, session, mine);
      else await this.#saveResults(store, tracked, session.results);
      this.#set({ problem: null });
    } catch (error) {
      this.#set({ problem: error });
    } finally {
      this.#set({ saving: false });
    }
  }

  async #saveResults(store: AutosaveStore, tracked: Tracked, results: readonly CaseResult[]): Promise<void> {
    const fresh = results.filter((r) => !tracked.savedIds.has(r.id));
    if (fresh.length === 0) return;
    await store.putResults(tracked.identity.id, fresh);
    for (const r of fresh) tracked.savedIds.add(r.id);
  }

  async #saveFields(store: AutosaveStore, tracked: Tracked, session: Session, mine: SessionFields): Promise<void> {
    const theirsBase = tracked.stored ?? mine;
    let theirs = theirsBase;
    let revision = tracked.identity.revision;
    for (let merges = 0; ; merges += 1) {
      const outcome = mergeFields(tracked.mineBase, mine, theirsBase, theirs);
      if ('conflicts' in outcome) return this.#saveAsCopy(store, tracked, session, outcome.conflicts);
      // Results are kept for the current settings and definition only: new settings or an edited
      // definition (the Definition view) replace the stored ones, computed with the old.
      const replaceResults = tracked.mineBase !== null && (outcome.mineChanged.includes('settings') || outcome.mineChanged.includes('pipeline'));
      const results = replaceResults ? session.results : session.results.filter((r) => !tracked.savedIds.has(r.id));
      const written: Session = withoutUndefined({ ...session, ...outcome.merged, results, revision });
      try {
        const saved = await store.put(written, { replaceResults });
        const pageName = tracked.identity.name;
        tracked.identity = {
          ...tracked.identity,
          revision: saved.revision,
          // Another tab's rename is taken unless this tab renamed since the snapshot.
          name: pageName === mine.name ? outcome.merged.name : pageName,
        };
        tracked.mineBase = mine;
        tracked.stored = outcome.merged;
        if (replaceResults) tracked.savedIds = new Set();
        for (const r of session.results) tracked.savedIds.add(r.id);
        if (tracked === this.#open) this.#set({ identity: tracked.identity });
        return;
      } catch (error) {
        if (!(error instanceof StaleWriteError) || merges >= MAX_MERGES) throw error;
        const stored = await store.get(tracked.identity.id);
        if (stored === undefined) throw new SessionNotFoundError(tracked.identity.id);
        theirs = fieldsOf(stored);
        revision = stored.revision;
      }
    }
  }

  /** Keeps this tab's version as a new session, leaving the other tab's untouched; the page continues on the copy. */
  async #saveAsCopy(store: AutosaveStore, tracked: Tracked, session: Session, conflicts: readonly string[]): Promise<void> {
    const identity: SessionIdentity = { id: this.#newId(), name: `${session.name} (copy)`, createdAt: this.#now(), revision: 0 };
    const saved = await store.put({ ...session, ...identity });
    tracked.identity = { ...identity, revision: saved.revision };
    tracked.mineBase = fieldsOf(session);
    tracked.stored = fieldsOf(saved);
    tracked.savedIds = new Set(session.results.map((r) => r.id));
    if (tracked === this.#open) {
      this.#set({ identity: tracked.identity });
      this.#syncRunLock();
    }
    throw new SessionForkedError(conflicts, identity.name);
  }

  /** Holds the open session's run lock while it is analysed here, so other tabs do not resume it too. */
  #syncRunLock(): void {
    const locks = this.#options.runLocks;
    if (!locks) return;
    const wanted = this.#open && this.#options.running?.() ? this.#open.identity.id : null;
    if (this.#runLock?.id === wanted) return;
    this.#runLock?.release?.();
    this.#runLock = null;
    if (wanted === null) return;
    const lock: { id: string; release: (() => void) | null } = { id: wanted, release: null };
    this.#runLock = lock;
    void locks.hold(wanted).then(({ release }) => {
      if (this.#runLock === lock) lock.release = release;
      else release();
    });
  }
}

/** Optional fields left out rather than stored as undefined (a removed pipeline or batch). */
function withoutUndefined(session: Session): Session {
  const copy: Record<string, unknown> = { ...session };
  for (const key of Object.keys(copy)) if (copy[key] === undefined) delete copy[key];
  return copy as unknown as Session;
}
