/**
 * The IndexedDB layout of the session store and its upgrades.
 *
 * Version 6 (current) is version 5 plus `trendDigests` (below), which the upgrade adds empty.
 * Version 5 is version 4 plus `runFiles` (below), which the upgrade adds empty.
 * Version 4 is version 3 with the cases of new saves cut into `inputChunks` (below).
 * Version 3 splits each session by how often its parts change, so that saving a new
 * name, status, settings or batch result writes a few small records however large the study is:
 *  - `summaries`: the list entry plus the mutable fields (name, status, updatedAt, revision);
 *    listing reads only these.
 *  - `bodies`: the small rest (format, createdAt, settings, batch result).
 *  - `inputs`: what the user brought (file name, pipeline source, cases, game tables, and the
 *    model responses an opened file carried): the bulk of a study, written only when it changes
 *    (see SessionStore.put).
 *  - `results`: one record per finished case, keyed [sessionId, caseId], so autosave during an
 *    analysis appends a few small records instead of rewriting the whole session.
 *  - `inputChunks` (version 4): the cases of an `inputs` record that has `caseChunks`, in chunks
 *    of a few dozen keyed [sessionId, index], each written in its own task (case-chunks.ts), so
 *    storing a 50 MB study never blocks the page for long. An `inputs` record without
 *    `caseChunks` (written by version 3, or by an upgrade) holds its cases inline and reads as is.
 *  - `unreadable`: records an upgrade could not read, kept rather than dropped.
 *  - `runFiles` (version 5): trace files opened in the run view, each kept as the file itself
 *    (a Blob) keyed by its path in its drop, so an address naming one of its runs reopens it after
 *    a reload or in another tab (run-file-store.ts). Apart from the sessions: nothing reads both.
 *  - `trendDigests` (version 6): each session's trend digest (src/session/trend-digest.ts), computed
 *    by the store from its stored results and kept under the summary's stamp (revision, update time
 *    and counts) it was computed at: the Trends view reads these, and a stale or missing one is
 *    computed again from the session. Nothing from a file is ever stored here.
 * Version 2 kept the inputs inside `bodies`; version 1 kept whole sessions (any schema version)
 * in one `sessions` store.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { CaseResult } from '../engine/types.ts';
import { joinCoalitions, splitCoalitions, type PackedCoalitions } from '../engine/packed-coalitions.ts';
import { issueAll } from './issue-all.ts';
import { migrateSession } from './migrate.ts';
import type { Session, SessionSummary } from './types.ts';
import { summarize } from './summary.ts';
import type { CaseChunkRecord } from './case-chunks.ts';
import type { StoredRunFile } from './run-files.ts';
import type { TrendDigest } from '../engine/trends.ts';

export const DB_NAME = 'agentblame';
export const DB_VERSION = 6;

/** A summary as stored: plus the next sequence number for appended results. */
export interface SummaryRecord extends SessionSummary {
  /** Results are listed in the order they were first stored; this numbers the next one. */
  nextSeq: number;
  /**
   * A fresh random token each time the `inputs` record is written, so a store can tell that the
   * inputs it wrote or read are still the stored ones (absent on records from older layouts).
   */
  inputsToken?: string;
}

/** What the user brought: the bulk of a session, stored apart and rewritten only when it changes. */
export type SessionInputs = Pick<Session, 'id' | 'fileName' | 'pipeline' | 'cases' | 'games' | 'modelCache'>;

/** An `inputs` record: with `caseChunks`, its `cases` are empty and stored in that many chunks. */
export type StoredInputs = SessionInputs & { caseChunks?: number };

/** The small, rarely changing rest of a session (a full save rewrites it). */
export type SessionBody = Omit<Session, 'name' | 'updatedAt' | 'status' | 'revision' | 'results' | keyof SessionInputs> & { id: string };

/** A `bodies` record of layout version 2, which still held the inputs. */
type BodyV2 = SessionBody & Omit<SessionInputs, 'id'>;

export interface ResultRecord {
  sessionId: string;
  caseId: string;
  seq: number;
  /** Without its coalition table when that is packed in `coalitions` (records written before have it inline). */
  result: CaseResult;
  coalitions?: PackedCoalitions;
}

/**
 * The stored record of one case's result: its coalition table packed, which makes the write (a
 * structured clone on the page's main thread) about 15 times cheaper for an 8-step case.
 */
export function resultRecord(sessionId: string, seq: number, result: CaseResult): ResultRecord {
  const split = splitCoalitions(result);
  return { sessionId, caseId: result.id, seq, result: split.result, ...(split.coalitions && { coalitions: split.coalitions }) };
}

/** A stored record's result, its coalition table unpacked. */
export function recordResult(record: ResultRecord): CaseResult {
  return joinCoalitions(record.result, record.coalitions);
}

/** A session's trend digest as the store keeps it, with the summary stamp it was computed at. */
export interface TrendDigestRecord {
  id: string;
  stamp: string;
  digest: TrendDigest;
}

/** What a stored session's digest depends on: any save or appended result changes it. */
export function digestStamp(summary: SessionSummary): string {
  return `${summary.revision}|${summary.updatedAt}|${summary.casesAnalysed}|${summary.failuresAnalysed}`;
}

export interface UnreadableRecord {
  raw: unknown;
  problem: string;
  foundAt: string;
}

export interface SessionDbSchema extends DBSchema {
  summaries: { key: string; value: SummaryRecord };
  bodies: { key: string; value: SessionBody };
  inputs: { key: string; value: StoredInputs };
  inputChunks: { key: [string, number]; value: CaseChunkRecord };
  results: { key: [string, string]; value: ResultRecord };
  unreadable: { key: number; value: UnreadableRecord };
  runFiles: { key: string; value: StoredRunFile };
  trendDigests: { key: string; value: TrendDigestRecord };
  /** Version 1 only: whole sessions. Removed by the upgrade to version 2. */
  sessions: { key: string; value: unknown };
}

export type SessionDb = IDBPDatabase<SessionDbSchema>;
type UpgradeTransaction = IDBPTransaction<SessionDbSchema, StoreNames<SessionDbSchema>[], 'versionchange'>;

/** The key range holding every result of one session: [id, ''] up to [id, []] (arrays sort after strings). */
export function resultsRange(sessionId: string): IDBKeyRange {
  return IDBKeyRange.bound([sessionId, ''], [sessionId, []]);
}

/** Splits a session's inputs off the rest of its body (games only when there are some). */
function splitInputs<T extends SessionBody & Omit<SessionInputs, 'id'>>(record: T): { body: SessionBody; inputs: SessionInputs } {
  const { fileName, pipeline, cases, games, modelCache, ...body } = record;
  const inputs: SessionInputs = {
    id: record.id,
    fileName,
    ...(pipeline !== undefined && { pipeline }),
    cases,
    ...(games !== undefined && games.length > 0 && { games }),
    // An opened file's model responses: as bulky as inputs, and as rarely changed.
    ...(modelCache !== undefined && modelCache.length > 0 && { modelCache }),
  };
  return { body, inputs };
}

/** Splits a session into its stored records (the results numbered from 0 in their order). */
export function splitSession(session: Session): { summary: SummaryRecord; body: SessionBody; inputs: SessionInputs; results: ResultRecord[] } {
  const { name: _name, updatedAt: _updatedAt, status: _status, revision: _revision, results, ...rest } = session;
  return {
    summary: { ...summarize(session), nextSeq: results.length },
    ...splitInputs(rest),
    results: results.map((result, seq) => resultRecord(session.id, seq, result)),
  };
}

/** Puts a stored session back together (results in their stored order). */
export function joinSession(summary: SummaryRecord, body: SessionBody, inputs: SessionInputs, results: ResultRecord[]): Session {
  const { id: _id, ...inputFields } = inputs;
  return {
    ...body,
    ...inputFields,
    name: summary.name,
    updatedAt: summary.updatedAt,
    status: summary.status,
    revision: summary.revision,
    results: [...results].sort((a, b) => a.seq - b.seq).map(recordResult),
  };
}

function createCurrentStores(db: IDBPDatabase<SessionDbSchema>): void {
  db.createObjectStore('summaries', { keyPath: 'id' });
  db.createObjectStore('bodies', { keyPath: 'id' });
  db.createObjectStore('inputs', { keyPath: 'id' });
  db.createObjectStore('results', { keyPath: ['sessionId', 'caseId'] });
  db.createObjectStore('unreadable', { autoIncrement: true });
  createChunkStore(db);
  createRunFileStore(db);
  createTrendDigestStore(db);
}

/** 3 -> 4: the store of case chunks; version-3 inputs records keep their cases inline. */
function createChunkStore(db: IDBPDatabase<SessionDbSchema>): void {
  db.createObjectStore('inputChunks', { keyPath: ['sessionId', 'index'] });
}

/** 4 -> 5: the store of trace files opened in the run view; every session record stays as it is. */
function createRunFileStore(db: IDBPDatabase<SessionDbSchema>): void {
  db.createObjectStore('runFiles', { keyPath: 'fileName' });
}

/** 5 -> 6: the store of trend digests, empty: each is computed when the Trends view first reads it. */
function createTrendDigestStore(db: IDBPDatabase<SessionDbSchema>): void {
  db.createObjectStore('trendDigests', { keyPath: 'id' });
}

/**
 * 1 -> current: moves every whole session into summary, body, inputs and per-case results,
 * migrating its schema on the way. A record that cannot be read goes to `unreadable` with the reason, so
 * nothing the user made is dropped silently.
 */
async function upgradeFrom1(db: IDBPDatabase<SessionDbSchema>, tx: UpgradeTransaction, now: string): Promise<void> {
  const old = await tx.objectStore('sessions').getAll();
  createCurrentStores(db);
  const writes: (() => Promise<unknown>)[] = [];
  for (const raw of old) {
    let session: Session;
    try {
      // Stored revision 1: the session has been stored once (here, by this upgrade).
      session = { ...migrateSession(raw), revision: 1 };
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      writes.push(() => tx.objectStore('unreadable').add({ raw, problem, foundAt: now }));
      continue;
    }
    const { summary, body, inputs, results } = splitSession(session);
    writes.push(
      () => tx.objectStore('summaries').put(summary),
      () => tx.objectStore('bodies').put(body),
      () => tx.objectStore('inputs').put(inputs),
    );
    for (const record of results) writes.push(() => tx.objectStore('results').put(record));
  }
  await issueAll(writes);
  db.deleteObjectStore('sessions');
}

function isBodyV2(record: unknown): record is BodyV2 {
  return typeof record === 'object' && record !== null && 'id' in record && typeof record.id === 'string' &&
    'fileName' in record && typeof record.fileName === 'string' && 'cases' in record && Array.isArray(record.cases);
}

/**
 * 2 -> 3: moves the inputs (file name, pipeline, cases) out of each `bodies` record into its own
 * `inputs` record. A body without them (never written by version 2) goes to `unreadable` with its
 * summary and results left as they were, so the session is listed but cannot open (get() needs
 * all three records) rather than vanish.
 */
async function upgradeFrom2To3(db: IDBPDatabase<SessionDbSchema>, tx: UpgradeTransaction, now: string): Promise<void> {
  const bodies = tx.objectStore('bodies');
  const old: unknown[] = await bodies.getAll();
  db.createObjectStore('inputs', { keyPath: 'id' });
  const writes: (() => Promise<unknown>)[] = [];
  for (const raw of old) {
    if (!isBodyV2(raw)) {
      writes.push(() => tx.objectStore('unreadable').add({ raw, problem: 'a version-2 session body without its file name or cases', foundAt: now }));
      continue;
    }
    const { body, inputs } = splitInputs(raw);
    writes.push(() => bodies.put(body), () => tx.objectStore('inputs').put(inputs));
  }
  await issueAll(writes);
}

/**
 * Opens (creating or upgrading) the session database. The upgrade runs inside the version-change
 * transaction, so a failing upgrade rolls back to the old layout with its data intact, and the
 * open fails with the upgrade's own error.
 */
export async function openSessionDb(name = DB_NAME, version = DB_VERSION, now = () => new Date().toISOString()): Promise<SessionDb> {
  let upgradeError: unknown;
  let db: SessionDb | undefined;
  try {
    db = await openDB<SessionDbSchema>(name, version, {
      // idb does not await this callback; errors are caught here and abort the transaction.
      async upgrade(database, oldVersion, _newVersion, tx) {
        try {
          if (oldVersion === 0) createCurrentStores(database);
          else if (oldVersion === 1) await upgradeFrom1(database, tx, now());
          else {
            if (oldVersion === 2) await upgradeFrom2To3(database, tx, now());
            if (oldVersion <= 3) createChunkStore(database);
            if (oldVersion <= 4) createRunFileStore(database);
            if (oldVersion <= 5) createTrendDigestStore(database);
          }
        } catch (error) {
          upgradeError = error;
          try {
            tx.abort();
          } catch {
            // Already aborting because a request failed: the rollback is under way.
          }
        }
      },
      blocking() {
        // A newer version of the app opened in another tab: step aside so its upgrade can run.
        db?.close();
      },
    });
  } catch (error) {
    throw upgradeError ?? error;
  }
  return db;
}
