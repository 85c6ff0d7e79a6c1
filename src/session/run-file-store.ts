/**
 * RunFileStore: the trace files opened in the run view, kept in the session database (`runFiles`,
 * db.ts) so an address naming one of their runs reopens it after a reload or in another tab.
 *
 * - The files themselves are kept (Blobs: the browser writes them to disk without copying them
 *   through the page's thread), at most MAX_KEPT_RUN_BYTES in all: files opened together beyond
 *   it are refused (RunFilesTooLargeError), and the oldest groups make way for a new one.
 * - A file opened again replaces its earlier copy (the key is its path in its drop).
 * - Every write is one transaction; QuotaExceededError becomes StorageFullError, and nothing
 *   stored before is lost.
 * - Changes are announced to this store's listeners and to other tabs.
 */
import { issueAll } from './issue-all.ts';
import type { IDBPObjectStore } from 'idb';
import type { SessionDb, SessionDbSchema } from './db.ts';
import { abortableWrite } from './abortable-write.ts';
import { findStoredRun, groupRunFiles, groupsToEvict, MAX_KEPT_RUN_BYTES, type StoredRunFile, type StoredRunGroup, type StoredRunPlace } from './run-files.ts';

export const RUN_FILES_CHANNEL = 'agentblame-run-files';

/** Files opened together that are larger than the store keeps: they stay open, but are not kept. */
export class RunFilesTooLargeError extends Error {
  override readonly name = 'RunFilesTooLargeError';
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(
      `These trace files (${megabytes(size)}) are larger than this browser keeps for the run view (${megabytes(limit)}): ` +
        'they are open, but a link to one of their runs works only while they are open in this tab.',
    );
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A file to keep: its path in its drop (or its name), the file, and the ids of its runs. */
export interface RunFileToKeep {
  fileName: string;
  blob: Blob;
  runIds: readonly string[];
}

export class RunFileStore {
  readonly #db: SessionDb;
  readonly #now: () => string;
  readonly #limit: number;
  readonly #channel: BroadcastChannel | null;
  readonly #listeners = new Set<() => void>();

  /** `limit`: the bytes kept in all (tests pass a small one). */
  constructor(db: SessionDb, options: { now?: () => string; limit?: number; broadcast?: boolean } = {}) {
    this.#db = db;
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#limit = options.limit ?? MAX_KEPT_RUN_BYTES;
    this.#channel = options.broadcast === false || typeof BroadcastChannel !== 'function' ? null : new BroadcastChannel(RUN_FILES_CHANNEL);
    this.#channel?.addEventListener('message', () => this.#emit());
  }

  close(): void {
    this.#channel?.close();
    this.#listeners.clear();
  }

  /** Listens to changes here and in other tabs; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Keeps files opened together as one group (in the order given), dropping the oldest groups
   * when the kept bytes would pass the limit. Returns the group's id and how many groups made way.
   */
  async keep(files: readonly RunFileToKeep[]): Promise<{ group: string; evicted: number }> {
    const size = files.reduce((sum, file) => sum + file.blob.size, 0);
    if (size > this.#limit) throw new RunFilesTooLargeError(size, this.#limit);
    const group = crypto.randomUUID();
    const action = `keep ${files.length === 1 ? 'the trace file' : `the ${files.length} trace files`} in this browser`;
    const evicted = await this.#write(action, async (store) => {
      const openedAt = laterThanEvery(this.#now(), await store.getAll());
      await issueAll(files.map((file, order) => () => store.put({ fileName: file.fileName, blob: file.blob, size: file.blob.size, group, order, openedAt, runIds: [...file.runIds] })));
      const records = await store.getAll();
      const drop = new Set(groupsToEvict(groupRunFiles(records), this.#limit, group));
      await issueAll(records.filter((record) => drop.has(record.group)).map((record) => () => store.delete(record.fileName)));
      return drop.size;
    });
    this.#announce();
    return { group, evicted };
  }

  /** The kept files, grouped as they were opened, newest first. */
  async list(): Promise<StoredRunGroup[]> {
    return groupRunFiles(await this.#db.getAll('runFiles'));
  }

  /** Where the run an address names is kept, or null when no kept file has it. */
  async find(key: string): Promise<StoredRunPlace | null> {
    return findStoredRun(await this.list(), key);
  }

  /** The files of a group, in the order they were opened (empty when it is gone). */
  async read(group: string): Promise<{ fileName: string; blob: Blob }[]> {
    const records: StoredRunFile[] = (await this.#db.getAll('runFiles')).filter((record) => record.group === group);
    return records.sort((a, b) => a.order - b.order).map(({ fileName, blob }) => ({ fileName, blob }));
  }

  /** Removes a group's files (a no-op when it is gone). */
  async remove(group: string): Promise<void> {
    await this.#write('remove the trace files', async (store) => {
      const keys = (await store.getAll()).filter((record) => record.group === group).map((record) => record.fileName);
      await issueAll(keys.map((key) => () => store.delete(key)));
    });
    this.#announce();
  }

  async #write<T>(action: string, work: (store: RunFilesObjectStore) => Promise<T>): Promise<T> {
    const tx = this.#db.transaction('runFiles', 'readwrite');
    return abortableWrite(action, tx, () => work(tx.store));
  }


  #announce(): void {
    this.#channel?.postMessage({ kind: 'run-files' });
    this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

type RunFilesObjectStore = IDBPObjectStore<SessionDbSchema, ['runFiles'], 'runFiles', 'readwrite'>;

/**
 * `now`, or just after the newest kept group when that is not earlier: groups are listed newest
 * first by when they were opened, and two opened within one millisecond would tie (and fall back
 * to their random ids), so a link could reopen the older of two.
 */
function laterThanEvery(now: string, kept: readonly { openedAt: string }[]): string {
  let newest = '';
  for (const record of kept) if (record.openedAt > newest) newest = record.openedAt;
  return now > newest ? now : new Date(Date.parse(newest) + 1).toISOString();
}
