/**
 * Autosaves the open study to IndexedDB (through the session store) and opens saved sessions.
 * Writes are throttled. A change of name, settings or status saves the session's small records
 * plus the results not stored yet; the store rewrites the cases and game tables only when they
 * are not the arrays it last stored (see SessionStore.put), so a large study stays cheap to save.
 * While an analysis runs only the newly finished results are appended. A full disk or another
 * tab's change becomes a banner; nothing already stored is lost (the store rolls back failed writes).
 */
import type { CaseDef, CaseResult } from '../../engine/types.ts';
import type { TableGame } from '../../formats/game.ts';
import { browserRunLocks } from '../../session/run-lock.ts';
import { SessionStore } from '../../session/store.ts';
import type { Session } from '../../session/types.ts';
import { sessionOf, type SessionIdentity } from './session-of.ts';
import type { AnalysisRunner } from './analysis-runner.svelte.ts';

const SAVE_DELAY_MS = 600;

export class SessionSync {
  /** The store, once IndexedDB is open (null where storage is unavailable). */
  store = $state.raw<SessionStore | null>(null);
  /** Why saving does not work or failed (an error, shown as a banner); null when all is well. */
  problem = $state.raw<unknown>(null);
  saving = $state(false);
  identity = $state.raw<SessionIdentity | null>(null);

  readonly #bench: AnalysisRunner;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #savedShape = '';
  /** The case and game lists last saved: a new list (another file, a definition's own cases) is a change. */
  #savedInputs: readonly [CaseDef[], TableGame[]] | null = null;
  #savedSettings = '';
  #savedIds = new Set<string>();
  #writing: Promise<void> = Promise.resolve();
  #releaseLock: (() => void) | null = null;
  #locks = browserRunLocks();

  constructor(bench: AnalysisRunner) {
    this.#bench = bench;
  }

  async init(): Promise<void> {
    try {
      this.store = await SessionStore.open({ runLocks: this.#locks });
    } catch (error) {
      this.problem = error;
    }
  }

  /** A new study was opened: it becomes a new session. */
  startNew(name: string): void {
    this.identity = { id: crypto.randomUUID(), name, createdAt: new Date().toISOString(), revision: 0 };
    this.#savedShape = '';
    this.#savedInputs = null;
    this.#savedSettings = '';
    this.#savedIds = new Set();
    this.schedule();
  }

  /** A stored session was opened: later saves continue it. */
  adopt(session: Session): void {
    this.identity = { id: session.id, name: session.name, createdAt: session.createdAt, revision: session.revision };
    this.#savedShape = '';
    this.#savedInputs = null;
    this.#savedSettings = JSON.stringify(session.settings);
    this.#savedIds = new Set(session.results.map((r) => r.id));
  }

  /** Forget the open session (the study was closed). */
  detach(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.identity = null;
    this.#holdRunLock(false);
  }

  /** Saves soon (called on every change of the workbench). */
  schedule(): void {
    if (!this.store || !this.identity) return;
    this.#holdRunLock(this.#bench.running);
    // Throttle, not debounce: results keep arriving during a run, and they must be saved as they
    // come (a reload mid-analysis keeps them), so a pending save is never pushed back.
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#writing = this.#writing.then(() => this.#save());
    }, SAVE_DELAY_MS);
  }

  /** Tries the failed save again (after the user freed space). Nothing was lost meanwhile. */
  retry(): void {
    this.problem = null;
    this.schedule();
  }

  async rename(name: string): Promise<void> {
    if (!this.identity || !this.store) return;
    const trimmed = name.trim();
    if (trimmed === '') return;
    await this.#writing;
    try {
      const summary = await this.store.rename(this.identity.id, trimmed);
      this.identity = { ...this.identity, name: summary.name, revision: summary.revision };
    } catch (error) {
      // Not stored yet: the next save writes the new name.
      this.identity = { ...this.identity, name: trimmed };
      if (!(error instanceof Error && error.name === 'SessionNotFoundError')) this.problem = error;
    }
  }

  /** The open study as a session (for export and the report), or null when nothing is open. */
  current(): Session | null {
    const study = this.#bench.study;
    if (!study) return null;
    const identity = this.identity ?? { id: crypto.randomUUID(), name: study.name, createdAt: new Date().toISOString(), revision: 0 };
    return sessionOf(identity, study, this.#bench.settings, this.#bench.finishedResults(), this.#bench.batch, this.#status());
  }

  #status(): Session['status'] {
    const progress = this.#bench.progress;
    if (!progress) return 'idle';
    return progress.status;
  }

  async #save(): Promise<void> {
    const store = this.store;
    const identity = this.identity;
    const bench = this.#bench;
    const study = bench.study;
    if (!store || !identity || !study) return;
    const results: CaseResult[] = bench.finishedResults();
    const status = this.#status();
    const shape = JSON.stringify([identity.name, study.fileName, study.pipeline?.source ?? '', bench.settings, status]);
    const inputsChanged = this.#savedInputs === null || this.#savedInputs[0] !== study.cases || this.#savedInputs[1] !== study.games;
    this.saving = true;
    try {
      if (shape !== this.#savedShape || inputsChanged) {
        // Results are kept for the current settings only: new settings replace the stored ones.
        const settings = JSON.stringify(bench.settings);
        const settingsChanged = this.#savedSettings !== '' && this.#savedSettings !== settings;
        // The store merges results per case, so only those not stored yet need writing.
        const unsaved = settingsChanged ? results : results.filter((r) => !this.#savedIds.has(r.id));
        const session = sessionOf(identity, study, bench.settings, unsaved, bench.batch, status);
        const saved = await store.put(session, { replaceResults: settingsChanged });
        if (this.identity?.id === identity.id) this.identity = { ...identity, revision: saved.revision };
        this.#savedShape = shape;
        this.#savedInputs = [study.cases, study.games];
        this.#savedSettings = settings;
        this.#savedIds = new Set(results.map((r) => r.id));
      } else {
        const fresh = results.filter((r) => !this.#savedIds.has(r.id));
        if (fresh.length > 0) {
          await store.putResults(identity.id, fresh);
          for (const r of fresh) this.#savedIds.add(r.id);
        }
      }
      this.problem = null;
    } catch (error) {
      this.problem = error;
      if (error instanceof Error && error.name === 'StaleWriteError') {
        // Another tab changed this session: keep working on a copy of our own from here on.
        this.identity = { ...identity, id: crypto.randomUUID(), revision: 0, name: `${identity.name} (copy)` };
        this.#savedShape = '';
        this.#savedInputs = null;
        this.#savedIds = new Set();
        this.schedule();
      }
    } finally {
      this.saving = false;
    }
  }

  /** Holds this session's run lock while it is analysed, so other tabs do not resume it too. */
  #holdRunLock(running: boolean): void {
    if (!this.#locks) return;
    if (running && !this.#releaseLock && this.identity) {
      this.#releaseLock = () => {};
      void this.#locks.hold(this.identity.id).then(({ release }) => {
        this.#releaseLock = release;
        if (!this.#bench.running) this.#holdRunLock(false);
      });
    } else if (!running && this.#releaseLock) {
      this.#releaseLock();
      this.#releaseLock = null;
    }
  }
}
