import { openDB, type IDBPDatabase } from 'idb';
import type { Session } from '../types.ts';

/**
 * The object stores each past version of the session database made (db.ts upgrades from each),
 * as that version made them, with the version that added each: for the upgrade tests.
 * Version 1 kept whole sessions in one store, which version 2 split.
 */
const LAYOUT: readonly (readonly [since: number, store: string, options: IDBObjectStoreParameters])[] = [
  [2, 'summaries', { keyPath: 'id' }],
  [2, 'bodies', { keyPath: 'id' }],
  [2, 'results', { keyPath: ['sessionId', 'caseId'] }],
  [2, 'unreadable', { autoIncrement: true }],
  [3, 'inputs', { keyPath: 'id' }],
  [4, 'inputChunks', { keyPath: ['sessionId', 'index'] }],
  [5, 'runFiles', { keyPath: 'fileName' }],
];

/** A database named `name` with the layout `version` made, empty. */
export function openLegacyDb(name: string, version: number): Promise<IDBPDatabase> {
  return openDB(name, version, {
    upgrade(db) {
      if (version === 1) db.createObjectStore('sessions', { keyPath: 'id' });
      else for (const [since, store, options] of LAYOUT) if (since <= version) db.createObjectStore(store, options);
    },
  });
}

/**
 * A session's summary, body and inputs as versions 3 to 5 wrote them (the summary's counts from
 * its results; `inputsToken` named the inputs' last write).
 */
export function legacyRecords(stored: Session & { revision: number }, inputsToken: string) {
  const { name: _n, updatedAt: _u, status: _s, revision: _r, results, fileName, pipeline, cases, games: _g, ...body } = stored;
  const failuresAnalysed = results.filter((r) => r.failed).length;
  const summary = { id: stored.id, name: stored.name, pipelineName: 'refund-policy', fileName, createdAt: stored.createdAt, updatedAt: stored.updatedAt, status: stored.status,
    revision: stored.revision, caseCount: cases.length, casesAnalysed: results.length, failuresAnalysed, nextSeq: results.length, inputsToken };
  return { summary, body, inputs: { id: stored.id, fileName, pipeline, cases }, results };
}
