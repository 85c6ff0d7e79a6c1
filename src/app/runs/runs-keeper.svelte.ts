/**
 * Keeps the trace files opened in the run view in this browser's store (src/session/run-file-store.ts)
 * and reopens them for an address naming one of their runs, after a reload or in another tab.
 * Files opened together are kept together and reopen together, so their runs get the same keys.
 * Keeping is best effort: a file that cannot be kept stays open, and the page says why.
 */
import { StorageFullError } from '../../session/errors.ts';
import { RunFilesTooLargeError, type RunFileStore } from '../../session/run-file-store.ts';
import type { RecordedRunFile } from '../../runs/index.ts';
import type { RunFileOutcome } from '../importing/import.worker.ts';
import type { RunsState } from './runs-state.svelte.ts';

/** Reads files as recorded runs (the import worker's `openRunFiles`; tests read them in-process). */
export type ReadRunFiles = (files: readonly { file: File; path: string }[]) => Promise<RunFileOutcome[]>;

/** What reopening an address's run from the store came to. */
export type RestoreOutcome =
  | { status: 'opened'; key: string | null }
  | { status: 'missing' }
  | { status: 'unavailable' };

/** A file the run view just opened: its path in its drop, its contents, and what it held. */
export interface OpenedRunFile {
  fileName: string;
  source: Blob | string;
  runs?: RecordedRunFile;
}

export class RunsKeeper {
  /** The last files could not be kept for a full disk (StorageFullError): shown as the storage banner. */
  problem = $state.raw<unknown>(null);
  /** The store once the page's database is open (null where there is none). */
  store = $state.raw<RunFileStore | null>(null);

  readonly #runs: RunsState;
  readonly #read: ReadRunFiles;
  readonly #tell: (title: string, message: string) => void;
  readonly #ready: Promise<RunFileStore | null>;
  #settle: (store: RunFileStore | null) => void = () => {};
  #settled = false;

  /** @param tell shows a plain message on the page (files too large to keep) */
  constructor(deps: { runs: RunsState; read: ReadRunFiles; tell: (title: string, message: string) => void }) {
    this.#runs = deps.runs;
    this.#read = deps.read;
    this.#tell = deps.tell;
    this.#ready = new Promise((resolve) => (this.#settle = resolve));
  }

  /** The page's database opened (or could not: null); an address waiting for it goes on. */
  useStore(store: RunFileStore | null): void {
    this.store = store;
    if (this.#settled) return;
    this.#settled = true;
    this.#settle(store);
  }

  /** Keeps files the user just opened in the run view (one group: they reopen together). */
  async keep(files: readonly OpenedRunFile[]): Promise<void> {
    const store = await this.#ready;
    if (store === null || files.length === 0) return;
    try {
      await store.keep(files.map((file) => ({
        fileName: file.fileName,
        blob: typeof file.source === 'string' ? new Blob([file.source], { type: 'application/json' }) : file.source,
        runIds: file.runs?.runs.map((run) => run.id) ?? [],
      })));
      if (this.problem instanceof StorageFullError) this.problem = null;
    } catch (error) {
      // A full disk is the storage banner's (it says what to free); anything else is a plain message.
      if (error instanceof StorageFullError) this.problem = error;
      else this.#tell('Trace files not kept in this browser', error instanceof RunFilesTooLargeError ? error.message : `They are open, but a link to one of their runs works only while they are open in this tab: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Opens the kept files holding the run a place names (the newest group for the list), and
   * returns the key the run now has (files opened apart before may have given it another).
   */
  async restore(place: { key: string | null }): Promise<RestoreOutcome> {
    const store = await this.#ready;
    if (store === null) return { status: 'unavailable' };
    const found = place.key === null ? null : await store.find(place.key);
    const group = place.key === null ? (await store.list())[0]?.id : found?.group;
    if (group === undefined || !(await this.reopen(group))) return { status: 'missing' };
    if (found === null) return { status: 'opened', key: null };
    const run = this.#runs.runs.find((r) => r.fileName === found.fileName && r.run.id === found.runId);
    return run ? { status: 'opened', key: run.key } : { status: 'missing' };
  }

  /** Opens a kept group in the run view; false when it is gone or none of its files reads as runs. */
  async reopen(group: string): Promise<boolean> {
    const store = await this.#ready;
    if (store === null) return false;
    const files = await store.read(group);
    if (files.length === 0) return false;
    const outcomes = await this.#read(files.map(({ fileName, blob }) => ({ file: new File([blob], fileName.split('/').pop() ?? fileName), path: fileName })));
    const opened: { fileName: string; runs: RecordedRunFile }[] = [];
    const problems: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.ok && outcome.runs) opened.push({ fileName: outcome.fileName, runs: outcome.runs });
      else if (outcome.ok && outcome.predictions) this.#runs.predictions = { fileName: outcome.fileName, predictions: outcome.predictions };
      else if (!outcome.ok) problems.push(`${outcome.fileName}: ${outcome.problem?.message ?? `kept in this browser, but it no longer reads as recorded runs (it reads as ${outcome.kind ?? 'something else'})`}`);
    }
    if (opened.length === 0) return false;
    this.#runs.add(opened);
    if (problems.length > 0) this.#runs.problems = [...this.#runs.problems, ...problems];
    return true;
  }
}
