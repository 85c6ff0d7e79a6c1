/**
 * The IndexedDB layout of the session store and its upgrades.
 *
 * Version 2 (current) splits each session in three so the list and autosave stay cheap:
 *  - `summaries`: the list entry plus the mutable fields (name, status, updatedAt, revision);
 *    listing reads only these.
 *  - `bodies`: what rarely changes (cases, settings, pipeline source, batch result).
 *  - `results`: one record per finished case, keyed [sessionId, caseId], so autosave during an
 *    analysis appends a few small records instead of rewriting the whole session.
 *  - `unreadable`: records an upgrade could not read, kept rather than dropped.
 * Version 1 kept whole sessions (any schema version) in one `sessions` store.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { CaseResult } from '../engine/types.ts';
import { issueAll } from './issue-all.ts';
import { migrateSession } from './migrate.ts';
import type { Session, SessionSummary } from './types.ts';
import { summarize } from './summary.ts';

export const DB_NAME = 'agentblame';
export const DB_VERSION = 2;

/** A summary as stored: plus the next sequence number for appended results. */
export interface SummaryRecord extends SessionSummary {
  /** Results are listed in the order they were first stored; this numbers the next one. */
  nextSeq: number;
}

/** The parts of a session that only a full save changes. */
export type SessionBody = Omit<Session, 'name' | 'updatedAt' | 'status' | 'revision' | 'results'>;

export interface ResultRecord {
  sessionId: string;
  caseId: string;
  seq: number;
  result: CaseResult;
}

export interface UnreadableRecord {
  raw: unknown;
  problem: string;
  foundAt: string;
}

export interface SessionDbSchema extends DBSchema {
  summaries: { key: string; value: SummaryRecord };
  bodies: { key: string; value: SessionBody };
  results: { key: [string, string]; value: ResultRecord };
  unreadable: { key: number; value: UnreadableRecord };
  /** Version 1 only: whole sessions. Removed by the upgrade to version 2. */
  sessions: { key: string; value: unknown };
}

export type SessionDb = IDBPDatabase<SessionDbSchema>;
type UpgradeTransaction = IDBPTransaction<SessionDbSchema, StoreNames<SessionDbSchema>[], 'versionchange'>;

/** The key range holding every result of one session: [id, ''] up to [id, []] (arrays sort after strings). */
export function resultsRange(sessionId: string): IDBKeyRange {
  return IDBKeyRange.bound([sessionId, ''], [sessionId, []]);
}

/** Splits a session into its stored records (the results numbered from 0 in their order). */
export function splitSession(session: Session): { summary: SummaryRecord; body: SessionBody; results: ResultRecord[] } {
  const { name: _name, updatedAt: _updatedAt, status: _status, revision: _revision, results, ...body } = session;
  return {
    summary: { ...summarize(session), nextSeq: results.length },
    body,
    results: results.map((result, seq) => ({ sessionId: session.id, caseId: result.id, seq, result })),
  };
}

function createCurrentStores(db: IDBPDatabase<SessionDbSchema>): void {
  db.createObjectStore('summaries', { keyPath: 'id' });
  db.createObjectStore('bodies', { keyPath: 'id' });
  db.createObjectStore('results', { keyPath: ['sessionId', 'caseId'] });
  db.createObjectStore('unreadable', { autoIncrement: true });
}

/**
 * 1 -> 2: moves every whole session into summary, body and per-case results, migrating its
 * schema on the way. A record that cannot be read goes to `unreadable` with the reason, so
 * nothing the user made is dropped silently.
 */
async function upgradeFrom1To2(db: IDBPDatabase<SessionDbSchema>, tx: UpgradeTransaction, now: string): Promise<void> {
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
    const { summary, body, results } = splitSession(session);
    writes.push(() => tx.objectStore('summaries').put(summary), () => tx.objectStore('bodies').put(body));
    for (const record of results) writes.push(() => tx.objectStore('results').put(record));
  }
  await issueAll(writes);
  db.deleteObjectStore('sessions');
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
          else if (oldVersion === 1) await upgradeFrom1To2(database, tx, now());
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
