/**
 * SessionStore: sessions in IndexedDB (layout in db.ts), safe across tabs.
 *
 * - Every write is one transaction: a failed import or save (quota, a stale revision, a crash)
 *   rolls back as a whole and leaves every stored session as it was.
 * - Optimistic concurrency: each session has a revision; `put` and `rename` carry the revision
 *   they were based on and are refused with StaleWriteError when the stored one differs, so one
 *   tab never overwrites another tab's change. Results are merged per case instead (a finished
 *   case's result does not depend on which tab computed it), so appending never conflicts.
 * - Each change is announced on a BroadcastChannel so other tabs refresh their list.
 * - QuotaExceededError becomes StorageFullError (shown as a banner).
 * - A save rewrites the bulky inputs (cases, game tables) only when they changed: see `put`.
 */
import type { CaseDef, CaseResult } from '../engine/types.ts';
import { openChannel, parseNotice, type SessionChange } from './channel.ts';
import type { IDBPObjectStore, IDBPTransaction } from 'idb';
import {
  joinSession,
  openSessionDb,
  resultRecord,
  resultsRange,
  digestStamp,
  splitSession,
  type SessionDb,
  type SessionDbSchema,
  type SessionInputs,
  type StoredInputs,
  type SummaryRecord,
} from './db.ts';
import { chunkCases, chunksRange, joinChunks } from './case-chunks.ts';
import { isQuotaError, SessionNotFoundError, StaleWriteError, StorageFullError, StorageUnavailableError } from './errors.ts';
import { abortableWrite } from './abortable-write.ts';
import type { RunLocks } from './run-lock.ts';
import { RunFileStore } from './run-file-store.ts';
import { issueAll } from './issue-all.ts';
import { isAnalysedFailure } from '../engine/case-result.ts';
import type { TrendDigest } from '../engine/trends.ts';
import { sessionTrendDigest } from './trend-digest.ts';
import type { ModelCacheEntry, Session, SessionGame, SessionSummary } from './types.ts';

export interface SessionStoreOptions {
  /** Database name (tests use a fresh one each). */
  name?: string;
  /** Clock for updatedAt (ISO strings). */
  now?: () => string;
  /** Run locks, to tell interrupted sessions from ones running in another tab. */
  runLocks?: RunLocks | null;
  /** Announce and hear changes across tabs (default true). */
  broadcast?: boolean;
  /** The bytes of trace files the run view keeps (tests pass a small one). */
  runFileLimit?: number;
}

type StoreName = 'summaries' | 'bodies' | 'inputs' | 'inputChunks' | 'results' | 'trendDigests';

function toSummary(record: SummaryRecord): SessionSummary {
  const { nextSeq: _nextSeq, inputsToken: _inputsToken, ...summary } = record;
  return summary;
}

/**
 * Inputs this store wrote or read, under the token they were stored with. The cases and games
 * are held weakly: only the very arrays can match (the workbench keeps passing the same ones
 * while the inputs are unchanged), and a closed study's cases must not be kept alive by this.
 */
interface InputsSeen {
  token: string;
  fileName: string;
  pipeline: { name: string; source: string } | undefined;
  cases: WeakRef<CaseDef[]>;
  games: WeakRef<SessionGame[]> | undefined;
  modelCache: WeakRef<ModelCacheEntry[]> | undefined;
}

/** Whether `inputs` are the ones seen: same small fields, and the very same case and game arrays. */
function sameInputs(seen: InputsSeen, inputs: SessionInputs): boolean {
  return (
    seen.fileName === inputs.fileName &&
    seen.pipeline?.name === inputs.pipeline?.name &&
    seen.pipeline?.source === inputs.pipeline?.source &&
    seen.cases.deref() === inputs.cases &&
    // Both without games, or both with the same (still living) array.
    (seen.games === undefined ? inputs.games === undefined : seen.games.deref() === inputs.games && inputs.games !== undefined) &&
    (seen.modelCache === undefined ? inputs.modelCache === undefined : seen.modelCache.deref() === inputs.modelCache && inputs.modelCache !== undefined)
  );
}

/** A stored inputs record with its cases in place (read from its chunks when it has them). */
function withCases(stored: StoredInputs, chunks: Parameters<typeof joinChunks>[2]): SessionInputs {
  const { caseChunks, ...inputs } = stored;
  return caseChunks === undefined ? inputs : { ...inputs, cases: joinChunks(stored.id, caseChunks, chunks) };
}

function newestFirst(a: SessionSummary, b: SessionSummary): number {
  return a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id);
}

export class SessionStore {
  readonly #db: SessionDb;
  readonly #now: () => string;
  readonly #runLocks: RunLocks | null;
  readonly #channel: BroadcastChannel | null;
  readonly #listeners = new Set<(change: SessionChange) => void>();
  /** By session id: the inputs last written or read here, to skip rewriting them unchanged. */
  readonly #inputsSeen = new Map<string, InputsSeen>();
  /** The trace files opened in the run view, kept in the same database. */
  readonly runFiles: RunFileStore;

  private constructor(db: SessionDb, options: SessionStoreOptions) {
    this.#db = db;
    this.runFiles = new RunFileStore(db, { now: options.now, limit: options.runFileLimit, broadcast: options.broadcast });
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#runLocks = options.runLocks ?? null;
    this.#channel = options.broadcast === false ? null : openChannel();
    this.#channel?.addEventListener('message', (event) => {
      const notice = parseNotice(event.data);
      if (notice !== null) this.#emit({ ...notice, remote: true });
    });
  }

  /** Opens the store, creating or upgrading the database. */
  static async open(options: SessionStoreOptions = {}): Promise<SessionStore> {
    if (typeof indexedDB === 'undefined') throw new StorageUnavailableError();
    let db: SessionDb;
    try {
      db = await openSessionDb(options.name, undefined, options.now);
    } catch (error) {
      if (error instanceof DOMException && (error.name === 'InvalidStateError' || error.name === 'SecurityError' || error.name === 'UnknownError')) {
        throw new StorageUnavailableError({ cause: error });
      }
      throw error;
    }
    return new SessionStore(db, options);
  }

  /** Stops listening to other tabs and closes the database. */
  close(): void {
    this.#channel?.close();
    this.#listeners.clear();
    this.runFiles.close();
    this.#db.close();
  }

  /** Listens to changes from this store and from other tabs; returns the unsubscribe function. */
  subscribe(listener: (change: SessionChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every stored session's summary, most recently updated first. Reads no cases or results. */
  async list(): Promise<SessionSummary[]> {
    const records = await this.#db.getAll('summaries');
    return records.map(toSummary).sort(newestFirst);
  }

  /**
   * Sessions left `running` by a tab that closed or crashed mid-analysis: offer to resume them.
   * Sessions whose run lock is held are running in a live tab and are left out.
   */
  async listInterrupted(): Promise<SessionSummary[]> {
    const running = (await this.list()).filter((summary) => summary.status === 'running');
    if (running.length === 0 || this.#runLocks === null) return running;
    const live = await this.#runLocks.heldIds();
    return running.filter((summary) => !live.has(summary.id));
  }

  async getSummary(id: string): Promise<SessionSummary | undefined> {
    const record = await this.#db.get('summaries', id);
    return record === undefined ? undefined : toSummary(record);
  }

  /**
   * The whole session (cases, games and every stored result), or undefined when not stored.
   * The store remembers the inputs it returns, so saving them back unchanged does not rewrite them.
   */
  async get(id: string): Promise<Session | undefined> {
    const tx = this.#db.transaction(['summaries', 'bodies', 'inputs', 'inputChunks', 'results'], 'readonly');
    const [summary, body, stored, chunks, records] = await Promise.all([
      tx.objectStore('summaries').get(id),
      tx.objectStore('bodies').get(id),
      tx.objectStore('inputs').get(id),
      tx.objectStore('inputChunks').getAll(chunksRange(id)),
      tx.objectStore('results').getAll(resultsRange(id)),
      tx.done,
    ]);
    if (summary === undefined || body === undefined || stored === undefined) return undefined;
    const inputs = withCases(stored, chunks);
    if (summary.inputsToken !== undefined) this.#rememberInputs(summary.inputsToken, inputs);
    return joinSession(summary, body, inputs, records);
  }

  /**
   * Saves a session: creates it when `session.revision` is 0, else requires the stored revision
   * to equal `session.revision`. Results are merged per case into the stored ones, unless
   * `replaceResults` (a restarted analysis) clears those first; so a caller need only pass the
   * results it has not stored yet, and each one passed is written. Returns the session as stored
   * (new revision and updatedAt; its `results` are those passed).
   *
   * The inputs record (cases and game tables, possibly tens of megabytes) is rewritten only when
   * the inputs changed: it is left alone when the stored inputs token is the one this store last
   * wrote or read for the session and the session carries the very same case and game arrays
   * (and the same file name and pipeline). So a change of name, status, settings or batch result
   * writes only the small records. Any other tab's write of the inputs changes the token, so an
   * unchanged-looking copy can never skip over it.
   */
  async put(session: Session, options: { replaceResults?: boolean } = {}): Promise<Session> {
    const updatedAt = this.#now();
    const saved: Session = { ...session, updatedAt, revision: session.revision + 1 };
    const { summary, body, inputs } = splitSession({ ...saved, results: [] });
    const inputsToken = await this.#write(`save "${session.name}"`, ['summaries', 'bodies', 'inputs', 'inputChunks', 'results'], async (tx) => {
      const summaries = tx.objectStore('summaries');
      const stored = await summaries.get(session.id);
      if (stored === undefined && session.revision !== 0) throw new SessionNotFoundError(session.id);
      if (stored !== undefined && stored.revision !== session.revision) {
        throw new StaleWriteError(session.id, session.revision, stored.revision);
      }
      const seen = this.#inputsSeen.get(session.id);
      const keepInputs = stored?.inputsToken !== undefined && seen?.token === stored.inputsToken && sameInputs(seen, inputs);
      const token = keepInputs && stored?.inputsToken !== undefined ? stored.inputsToken : crypto.randomUUID();
      const results = tx.objectStore('results');
      let base: SummaryRecord = { ...summary, inputsToken: token };
      if (stored !== undefined && !options.replaceResults) {
        base = { ...base, casesAnalysed: stored.casesAnalysed, failuresAnalysed: stored.failuresAnalysed, nextSeq: stored.nextSeq };
      } else if (stored !== undefined) {
        await results.delete(resultsRange(session.id));
      }
      const merged = await mergeResults(results, base, session.results);
      const chunks = keepInputs ? [] : chunkCases(session.id, inputs.cases);
      await issueAll<unknown>([
        () => summaries.put(merged),
        () => tx.objectStore('bodies').put(body),
        ...(keepInputs ? [] : [() => tx.objectStore('inputs').put({ ...inputs, cases: [], caseChunks: chunks.length }), () => tx.objectStore('inputChunks').delete(chunksRange(session.id))]),
      ]);
      // One chunk per task: each put is issued from the previous one's completion (the transaction stays active).
      const chunkStore = tx.objectStore('inputChunks');
      for (const chunk of chunks) await chunkStore.put(chunk);
      return token;
    });
    // Only once the transaction committed: a rolled-back write must not count as stored.
    this.#rememberInputs(inputsToken, inputs);
    this.#announce('saved', saved.id, saved.revision);
    return saved;
  }

  /**
   * Adds or replaces the results of some cases (autosave during an analysis). Cheap: writes one
   * small record per case and the summary, never the cases or earlier results. Does not change
   * the revision (a merge cannot overwrite another tab's change). Refused if the session is gone.
   */
  async putResults(id: string, results: readonly CaseResult[]): Promise<SessionSummary> {
    if (results.length === 0) {
      const summary = await this.getSummary(id);
      if (summary === undefined) throw new SessionNotFoundError(id);
      return summary;
    }
    const updated = await this.#write('save the finished cases', ['summaries', 'results'], async (tx) => {
      const summaries = tx.objectStore('summaries');
      const stored = await summaries.get(id);
      if (stored === undefined) throw new SessionNotFoundError(id);
      const merged = await mergeResults(tx.objectStore('results'), { ...stored, updatedAt: this.#now() }, results);
      await summaries.put(merged);
      return merged;
    });
    this.#announce('saved', id, updated.revision);
    return toSummary(updated);
  }

  /**
   * Renames a session. With `expectedRevision`, refused when the session changed since (a rename
   * from a stale list entry); either way it bumps the revision, so a tab holding an older copy
   * cannot write the old name back.
   */
  async rename(id: string, name: string, expectedRevision?: number): Promise<SessionSummary> {
    const trimmed = name.trim();
    if (trimmed === '') throw new Error('A session name cannot be empty.');
    const updated = await this.#write(`rename the session to "${trimmed}"`, ['summaries'], async (tx) => {
      const summaries = tx.objectStore('summaries');
      const stored = await summaries.get(id);
      if (stored === undefined) throw new SessionNotFoundError(id);
      if (expectedRevision !== undefined && stored.revision !== expectedRevision) {
        throw new StaleWriteError(id, expectedRevision, stored.revision);
      }
      const next = { ...stored, name: trimmed, updatedAt: this.#now(), revision: stored.revision + 1 };
      await summaries.put(next);
      return next;
    });
    this.#announce('saved', id, updated.revision);
    return toSummary(updated);
  }

  /**
   * The trend digest of every stored session (docs/trends.md), computed by this store from the
   * session's own stored results: one kept from before is used while the session's summary stamp
   * (revision, update time, counts) is the one it was computed at; a missing or stale one is
   * computed again once and kept. Reads only summaries and digests when all are current.
   */
  async trendDigests(): Promise<TrendDigest[]> {
    const tx = this.#db.transaction(['summaries', 'trendDigests'], 'readonly');
    const [summaries, records] = await Promise.all([tx.objectStore('summaries').getAll(), tx.objectStore('trendDigests').getAll(), tx.done]);
    const kept = new Map(records.map((r) => [r.id, r]));
    const out: TrendDigest[] = [];
    for (const summary of summaries) {
      const stamp = digestStamp(summary);
      const record = kept.get(summary.id);
      if (record?.stamp === stamp) {
        out.push(record.digest);
        continue;
      }
      const session = await this.get(summary.id);
      if (!session) continue;
      const digest = sessionTrendDigest(session);
      out.push(digest);
      // Kept only if the session did not change meanwhile; a failed write costs a recomputation next time.
      await this.#write('keep a trend digest', ['summaries', 'trendDigests'], async (wtx) => {
        const now = await wtx.objectStore('summaries').get(summary.id);
        if (now && digestStamp(now) === stamp) await wtx.objectStore('trendDigests').put({ id: summary.id, stamp, digest });
      }).catch(() => undefined);
    }
    return out;
  }

  /** Deletes a session and all its results (a no-op when it is already gone). */
  async delete(id: string): Promise<void> {
    await this.#write('delete the session', ['summaries', 'bodies', 'inputs', 'inputChunks', 'results', 'trendDigests'], async (tx) => {
      await issueAll([
        () => tx.objectStore('trendDigests').delete(id),
        () => tx.objectStore('summaries').delete(id),
        () => tx.objectStore('bodies').delete(id),
        () => tx.objectStore('inputs').delete(id),
        () => tx.objectStore('inputChunks').delete(chunksRange(id)),
        () => tx.objectStore('results').delete(resultsRange(id)),
      ]);
    });
    this.#inputsSeen.delete(id);
    this.#announce('deleted', id, 0);
  }

  /**
   * Stores an imported session as a new one, never over a stored session: when its id is taken
   * (the same file imported twice, or a session exported from here) it gets a fresh id.
   */
  async importSession(session: Session): Promise<Session> {
    const taken = (await this.#db.getKey('summaries', session.id)) !== undefined;
    const id = taken ? crypto.randomUUID() : session.id;
    return this.put({ ...session, id, revision: 0 });
  }

  #rememberInputs(token: string, inputs: SessionInputs): void {
    this.#inputsSeen.set(inputs.id, {
      token,
      fileName: inputs.fileName,
      pipeline: inputs.pipeline,
      cases: new WeakRef(inputs.cases),
      games: inputs.games === undefined ? undefined : new WeakRef(inputs.games),
      modelCache: inputs.modelCache === undefined ? undefined : new WeakRef(inputs.modelCache),
    });
  }

  /** One read-write transaction; any failure aborts it whole and quota errors become StorageFullError. */
  async #write<T>(action: string, stores: StoreName[], work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return abortableWrite(action, this.#db.transaction(stores, 'readwrite'), work);
  }


  #announce(kind: SessionChange['kind'], id: string, revision: number): void {
    this.#channel?.postMessage({ kind, id, revision });
    this.#emit({ kind, id, revision, remote: false });
  }

  #emit(change: SessionChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}

type WriteTransaction = IDBPTransaction<SessionDbSchema, StoreName[], 'readwrite'>;
type ResultsObjectStore = IDBPObjectStore<SessionDbSchema, StoreName[], 'results', 'readwrite'>;

/** Requests issued together in a results merge; each group waits for the last one, so no task runs long. */
const WRITES_PER_TASK = 48;

/**
 * Upserts results per case inside the caller's transaction and returns the summary with its
 * counts updated: a case seen before keeps its place in the order and has its old contribution
 * to the counts replaced. Which cases are stored comes from one key listing of the session (not
 * a read per case), and the writes go in groups, each issued from the previous group's completion
 * (the transaction stays active): issuing the 300 writes of one autosave in a single task kept the
 * page's main thread busy for up to 300 ms (bench/README.md, "Page speed").
 */
async function mergeResults(store: ResultsObjectStore, summary: SummaryRecord, results: readonly CaseResult[]): Promise<SummaryRecord> {
  const next = { ...summary };
  const latest = new Map<string, CaseResult>();
  for (const result of results) latest.set(result.id, result); // The last result for a case wins.
  const storedKeys = await store.getAllKeys(resultsRange(summary.id));
  const stored = new Set(storedKeys.map((key) => key[1]));
  const seen = [...latest.keys()].filter((caseId) => stored.has(caseId));
  const previous = new Map(seen.length === 0 ? [] : (await issueAll(seen.map((caseId) => () => store.get([summary.id, caseId])))).map((record, i) => [seen[i], record]));
  const writes: (() => Promise<unknown>)[] = [];
  for (const result of latest.values()) {
    const before = previous.get(result.id);
    let seq: number;
    if (before === undefined) {
      seq = next.nextSeq++;
      next.casesAnalysed += 1;
    } else {
      seq = before.seq;
      if (isAnalysedFailure(before.result)) next.failuresAnalysed -= 1;
    }
    if (isAnalysedFailure(result)) next.failuresAnalysed += 1;
    writes.push(() => store.put(resultRecord(summary.id, seq, result)));
  }
  for (let start = 0; start < writes.length; start += WRITES_PER_TASK) await issueAll(writes.slice(start, start + WRITES_PER_TASK));
  return next;
}

