import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionChange } from './channel.ts';
import { DB_VERSION } from './db.ts';
import { SessionNotFoundError, StaleWriteError, StorageFullError } from './errors.ts';
import { SessionStore } from './store.ts';
import { countPuts } from './testing/count-puts.ts';
import { CASES_PER_CHUNK } from './case-chunks.ts';
import { simulateQuota } from './testing/quota.ts';
import { errorCaseResult, gameSession, result, session, sessionV0 } from './testing/sample-session.ts';
import { legacyRecords, openLegacyDb } from './testing/legacy-db.ts';
import type { RunLocks } from './run-lock.ts';

let dbCounter = 0;
const opened: SessionStore[] = [];

/** A fresh database name per test; a ticking clock so updatedAt orders writes. */
function freshName(): string {
  dbCounter += 1;
  return `agentblame-test-${dbCounter}-${Math.floor(performance.now())}`;
}

let tick = 0;
function clock(): string {
  tick += 1;
  return new Date(Date.UTC(2026, 0, 1, 12, 0, tick)).toISOString();
}

async function openStore(name: string, extra: { runLocks?: RunLocks } = {}): Promise<SessionStore> {
  const store = await SessionStore.open({ name, now: clock, ...extra });
  opened.push(store);
  return store;
}

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** Resolves with the next change a store hears. */
/** A database as version 1 made it: whole sessions in one store. */
const openVersion1 = (name: string) => openLegacyDb(name, 1);

function nextChange(store: SessionStore, predicate: (change: SessionChange) => boolean): Promise<SessionChange> {
  return new Promise((resolve) => {
    const stop = store.subscribe((change) => {
      if (predicate(change)) {
        stop();
        resolve(change);
      }
    });
  });
}

describe('SessionStore basics', () => {
  it('creates, lists summaries newest first, gets the whole session back', async () => {
    const store = await openStore(freshName());
    const first = await store.put(session({ id: 'a', name: 'first' }));
    expect(first.revision).toBe(1);
    await store.put(session({ id: 'b', name: 'second', pipeline: undefined, results: [] }));
    const list = await store.list();
    expect(list.map((s) => s.id)).toEqual(['b', 'a']);
    expect(list[1]).toEqual({
      id: 'a', name: 'first', pipelineName: 'refund-policy', fileName: 'refund.trace.json',
      createdAt: '2026-01-01T10:00:00.000Z', updatedAt: first.updatedAt, status: 'done', revision: 1,
      caseCount: 3, casesAnalysed: 2, failuresAnalysed: 1, mode: 'recorded', method: 'auto',
    });
    expect(list[0].pipelineName).toBe('');
    expect(await store.get('a')).toEqual(first);
    expect(await store.get('missing')).toBeUndefined();
  });

  it('appends results per case and keeps them across a reopen (a reload mid-analysis)', async () => {
    const name = freshName();
    const store = await openStore(name);
    const saved = await store.put(session({ status: 'running', results: [] }));
    await store.putResults(saved.id, [result('q2')]);
    const summary = await store.putResults(saved.id, [result('q1', false), result('q2', false)]);
    expect(summary).toMatchObject({ casesAnalysed: 2, failuresAnalysed: 0, revision: 1 });
    store.close();
    opened.splice(opened.indexOf(store), 1);

    const reopened = await openStore(name);
    const back = await reopened.get(saved.id);
    // q2 keeps its first place; its newer result replaced the older one.
    expect(back?.results.map((r) => [r.id, r.failed])).toEqual([['q2', false], ['q1', false]]);
    expect(back?.status).toBe('running');
    expect((await reopened.listInterrupted()).map((s) => s.id)).toEqual([saved.id]);
  });

  it('a full save merges results unless asked to replace them', async () => {
    const store = await openStore(freshName());
    const saved = await store.put(session({ results: [result('q1')] }));
    await store.putResults(saved.id, [result('q3')]);
    const merged = await store.put({ ...saved, status: 'done', results: [result('q2')] });
    expect((await store.get(saved.id))?.results.map((r) => r.id)).toEqual(['q1', 'q3', 'q2']);
    await store.put({ ...merged, results: [result('q3', false)] }, { replaceResults: true });
    const replaced = await store.get(saved.id);
    expect(replaced?.results.map((r) => r.id)).toEqual(['q3']);
    expect((await store.getSummary(saved.id))?.failuresAnalysed).toBe(0);
  });

  it('renames and deletes', async () => {
    const store = await openStore(freshName());
    const saved = await store.put(session());
    const renamed = await store.rename(saved.id, '  Refund study  ');
    expect(renamed).toMatchObject({ name: 'Refund study', revision: 2 });
    expect((await store.get(saved.id))?.name).toBe('Refund study');
    await expect(store.rename(saved.id, '   ')).rejects.toThrow('cannot be empty');
    await store.delete(saved.id);
    expect(await store.list()).toEqual([]);
    expect(await store.get(saved.id)).toBeUndefined();
    await expect(store.putResults(saved.id, [result('q1')])).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  it('imports a session under a fresh id when its id is taken, never over the stored one', async () => {
    const store = await openStore(freshName());
    const stored = await store.put(session({ name: 'mine' }));
    const imported = await store.importSession(session({ name: 'imported', revision: 9 }));
    expect(imported.id).not.toBe(stored.id);
    expect(imported.revision).toBe(1);
    expect((await store.get(stored.id))?.name).toBe('mine');
    expect((await store.list()).length).toBe(2);
  });

  it('leaves interrupted sessions out when their run lock is held by a live tab', async () => {
    const held = new Set<string>();
    const runLocks: RunLocks = {
      async hold(id) {
        held.add(id);
        return { acquired: true, release: () => held.delete(id) };
      },
      async heldIds() {
        return new Set(held);
      },
    };
    const store = await openStore(freshName(), { runLocks });
    await store.put(session({ id: 'live', status: 'running' }));
    await store.put(session({ id: 'dead', status: 'running' }));
    await store.put(session({ id: 'finished', status: 'done' }));
    await runLocks.hold('live');
    expect((await store.listInterrupted()).map((s) => s.id)).toEqual(['dead']);
  });
});

describe('game-table sessions', () => {
  it('stores and returns a session of game tables, counting games as cases in the list', async () => {
    const name = freshName();
    const store = await openStore(name);
    const saved = await store.put(gameSession());
    await store.putResults(saved.id, [result('case-2', false)]);
    store.close();
    opened.splice(opened.indexOf(store), 1);

    const reopened = await openStore(name);
    const back = await reopened.get(saved.id);
    // Appending results moved updatedAt on; everything else is as saved.
    expect(back).toEqual({ ...saved, updatedAt: back?.updatedAt, results: [result('case-1'), result('case-2', false)] });
    expect(back?.games?.[1]).toEqual({ id: 'case-2', players: ['planner', 'retriever'], values: [0, 0.2, 0.4, 0.9], range: [0, 1] });
    expect(await reopened.getSummary(saved.id)).toMatchObject({ pipelineName: '', caseCount: 2, casesAnalysed: 2, failuresAnalysed: 1 });
  });
});

describe('which records a save writes', () => {
  it('rewrites the cases and games only when they change, not for name, status, settings or batch', async () => {
    const store = await openStore(freshName());
    const puts = countPuts();
    try {
      const created = await store.put(gameSession({ cases: [{ id: 'q1', inputs: {} }] }));
      expect(puts.counts.get('inputs')).toBe(1);

      puts.reset();
      const batch = { failures: 1, analyzed: 1, unfixable: 0, cost: 6, steps: [] };
      // Results stored before need not be passed again (a full save merges them per case).
      const updated = await store.put({ ...created, name: 'renamed', status: 'running', settings: { ...created.settings, seed: 8 }, batch, results: [] });
      expect(Object.fromEntries(puts.counts)).toEqual({ summaries: 1, bodies: 1 });
      expect(await store.get(created.id)).toEqual({ ...updated, results: created.results });

      puts.reset();
      await store.rename(created.id, 'again');
      expect(Object.fromEntries(puts.counts)).toEqual({ summaries: 1 });

      // Equal content in a new array still counts as new inputs (identity is the cheap, safe test).
      puts.reset();
      const fromStore = await store.get(created.id);
      if (fromStore === undefined) throw new Error('the session should be stored');
      const newCases = await store.put({ ...fromStore, cases: [...fromStore.cases, { id: 'q2', inputs: { x: 1 } }] });
      expect(puts.counts.get('inputs')).toBe(1);
      expect((await store.get(created.id))?.cases.map((c) => c.id)).toEqual(['q1', 'q2']);

      // A session read back from the store and saved again keeps its stored inputs, as do new games removed.
      puts.reset();
      const read = await store.get(created.id);
      if (read === undefined) throw new Error('the session should be stored');
      await store.put({ ...read, status: 'done', results: [] });
      expect(Object.fromEntries(puts.counts)).toEqual({ summaries: 1, bodies: 1 });
      const { games: _games, ...withoutGames } = { ...read, revision: newCases.revision + 1 };
      await store.put(withoutGames);
      expect(puts.counts.get('inputs')).toBe(1);
      expect((await store.get(created.id))?.games).toBeUndefined();
    } finally {
      puts.restore();
    }
  });

  it("keeps an opened file's model responses with the inputs: stored and read back, not rewritten by a settings change", async () => {
    const store = await openStore(freshName());
    const entry = { key: 'a'.repeat(64), request: { model: 'm', messages: [{ role: 'user' as const, content: 'q' }] }, response: { text: 'r', finish: 'stop', usage: { input: 1, output: 1 } } };
    const puts = countPuts();
    try {
      const created = await store.put({ ...session(), modelCache: [entry] });
      puts.reset();
      await store.put({ ...created, settings: { ...created.settings, seed: 9 }, results: [] });
      expect(Object.fromEntries(puts.counts)).toEqual({ summaries: 1, bodies: 1 });
      expect((await store.get(created.id))?.modelCache).toEqual([entry]);
    } finally {
      puts.restore();
    }
  });

  it('rewrites the inputs when another tab wrote different ones, even from an up-to-date revision', async () => {
    const name = freshName();
    const tabA = await openStore(name);
    const tabB = await openStore(name);
    const inA = await tabA.put(session());
    const copyInB = await tabB.get(inA.id);
    if (copyInB === undefined) throw new Error('tab B should see the session');
    await tabB.put({ ...copyInB, cases: copyInB.cases.slice(0, 2), results: [] }, { replaceResults: true });
    // Tab A saves its own cases (the very array it wrote before) at the current revision.
    await tabA.put({ ...inA, revision: inA.revision + 1, results: [] }, { replaceResults: true });
    expect((await tabB.get(inA.id))?.cases).toEqual(inA.cases);
  });

  it('a save that failed writing the inputs rolls back and is written whole next time', async () => {
    const store = await openStore(freshName());
    const created = await store.put(session({ results: [] }));
    const grown = { ...created, cases: [...created.cases, { id: 'q4', inputs: {} }] };
    const quota = simulateQuota();
    try {
      // Puts in a save: summary, body, then inputs; the third fails.
      quota.arm(2);
      await expect(store.put(grown)).rejects.toBeInstanceOf(StorageFullError);
    } finally {
      quota.restore();
    }
    expect(await store.get(created.id)).toEqual(created);
    await store.put(grown);
    expect((await store.get(created.id))?.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
  });
});

describe('two tabs', () => {
  it('refuses a stale write instead of overwriting the other tab', async () => {
    const name = freshName();
    const tabA = await openStore(name);
    const tabB = await openStore(name);
    const created = await tabA.put(session({ name: 'original' }));
    const copyInB = await tabB.get(created.id);
    if (copyInB === undefined) throw new Error('tab B should see the session');

    await tabA.put({ ...created, name: 'renamed in A' });
    const stale = tabB.put({ ...copyInB, name: 'renamed in B' });
    await expect(stale).rejects.toBeInstanceOf(StaleWriteError);
    await expect(stale).rejects.toThrow(/revision 1, the stored one 2/);
    expect((await tabA.get(created.id))?.name).toBe('renamed in A');

    // A rename from a stale list entry is refused the same way.
    await expect(tabB.rename(created.id, 'x', copyInB.revision)).rejects.toBeInstanceOf(StaleWriteError);
    // Two tabs cannot both create the same id.
    await expect(tabB.put(session({ name: 'same id' }))).rejects.toBeInstanceOf(StaleWriteError);
  });

  it('a stale full save does not drop results appended by the other tab', async () => {
    const name = freshName();
    const tabA = await openStore(name);
    const tabB = await openStore(name);
    const created = await tabA.put(session({ status: 'running', results: [] }));
    const copyInB = await tabB.get(created.id);
    await tabA.putResults(created.id, [result('q1'), result('q2')]);
    // B saves its older copy (same revision: appending does not bump it), with no results.
    if (copyInB === undefined) throw new Error('tab B should see the session');
    await tabB.put({ ...copyInB, name: 'B' });
    expect((await tabA.get(created.id))?.results.map((r) => r.id)).toEqual(['q1', 'q2']);
  });

  it('refuses to resurrect a session deleted in the other tab', async () => {
    const name = freshName();
    const tabA = await openStore(name);
    const tabB = await openStore(name);
    const created = await tabA.put(session());
    await tabB.delete(created.id);
    await expect(tabA.put(created)).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(tabA.putResults(created.id, [result('q1')])).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await tabA.list()).toEqual([]);
  });

  it('tells the other tab about saves and deletes', async () => {
    const name = freshName();
    const tabA = await openStore(name);
    const tabB = await openStore(name);
    const heard = nextChange(tabB, (c) => c.kind === 'saved');
    const created = await tabA.put(session());
    expect(await heard).toEqual({ kind: 'saved', id: created.id, revision: 1, remote: true });
    const local = nextChange(tabA, (c) => c.kind === 'deleted');
    const heardDelete = nextChange(tabB, (c) => c.kind === 'deleted');
    await tabA.delete(created.id);
    expect(await local).toMatchObject({ remote: false });
    expect(await heardDelete).toEqual({ kind: 'deleted', id: created.id, revision: 0, remote: true });
  });
});

describe('storage full', () => {
  it('surfaces QuotaExceededError as StorageFullError and loses nothing already stored', async () => {
    const name = freshName();
    const store = await openStore(name);
    const kept = await store.put(session({ id: 'kept', name: 'kept' }));
    const other = await store.put(session({ id: 'other', results: [] }));
    const quota = simulateQuota();
    try {
      // An import that fails part-way (after two of its records) leaves no trace of itself.
      quota.arm(2);
      const failedImport = store.importSession(session({ id: 'new', results: [result('q1'), result('q2'), result('q3')] }));
      await expect(failedImport).rejects.toBeInstanceOf(StorageFullError);
      await expect(failedImport).rejects.toThrow(/Browser storage is full/);
      // Appending results fails whole too: the summary counts stay as they were.
      quota.arm(1);
      await expect(store.putResults(other.id, [result('q1'), result('q2')])).rejects.toBeInstanceOf(StorageFullError);
      // So does an update of an existing session.
      quota.arm(0);
      await expect(store.put({ ...kept, name: 'changed' })).rejects.toBeInstanceOf(StorageFullError);
    } finally {
      quota.restore();
    }
    expect((await store.list()).map((s) => s.id).sort()).toEqual(['kept', 'other']);
    expect(await store.get('kept')).toEqual(kept);
    expect(await store.get('other')).toEqual(other);
    expect(await store.get('new')).toBeUndefined();
    // Not even part of the failed import was committed (no orphaned result records).
    const raw = await openDB(name);
    expect(await raw.count('results', IDBKeyRange.bound(['new', ''], ['new', []]))).toBe(0);
    raw.close();
    // The store still works once space is free again.
    await store.putResults(other.id, [result('q1')]);
    expect((await store.getSummary(other.id))?.casesAnalysed).toBe(1);
  });
});

describe('coalition tables in the store', () => {
  it('stores a result\'s coalition table packed, reads it back the same, and still reads records with the table inline', async () => {
    const name = freshName();
    const store = await openStore(name);
    const saved = await store.put(session({ results: [result('q1')] }));
    await store.putResults(saved.id, [result('q2')]);
    const raw = await openDB(name);
    const record = await raw.get('results', [saved.id, 'q2']);
    expect(record.result.coalitions).toBeUndefined();
    expect(record.coalitions.masks).toBeInstanceOf(Uint32Array);
    expect([...record.coalitions.masks]).toEqual([0, 1, 2, 3]);
    // A record written before tables were packed.
    await raw.put('results', { sessionId: saved.id, caseId: 'q3', seq: 2, result: result('q3') });
    raw.close();
    const back = await store.get(saved.id);
    expect(back?.results).toEqual([result('q1'), result('q2'), result('q3')]);
    expect(JSON.stringify(back?.results[1])).toBe(JSON.stringify(result('q2')));
  });
});

describe('database upgrades', () => {
  it('opens a fresh database at the current version', async () => {
    const name = freshName();
    const store = await openStore(name);
    store.close();
    opened.splice(0);
    const db = await openDB(name);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['bodies', 'inputChunks', 'inputs', 'results', 'runFiles', 'summaries', 'trendDigests', 'unreadable']);
    db.close();
  });

  it('moves version-1 whole sessions (of schema v0 and v1) into the split layout, keeping unreadable records', async () => {
    const name = freshName();
    const legacy = await openVersion1(name);
    await legacy.put('sessions', session({ id: 'v1-session', status: 'running', results: [result('q2'), result('q1')] }));
    await legacy.put('sessions', sessionV0({ id: 'v0-session' }));
    await legacy.put('sessions', { id: 'broken', format: 'agentblame-session', version: 1, name: 42 });
    legacy.close();

    const store = await openStore(name);
    const list = await store.list();
    expect(list.map((s) => s.id).sort()).toEqual(['v0-session', 'v1-session']);
    const upgraded = await store.get('v1-session');
    expect(upgraded?.results.map((r) => r.id)).toEqual(['q2', 'q1']);
    expect(upgraded?.revision).toBe(1);
    expect(upgraded?.settings.budget).toBe(Number.POSITIVE_INFINITY);
    expect((await store.get('v0-session'))?.name).toBe('refund run (old)');
    expect((await store.listInterrupted()).map((s) => s.id)).toEqual(['v1-session']);
    store.close();
    opened.splice(0);

    const db = await openDB(name);
    expect(db.objectStoreNames.contains('sessions')).toBe(false);
    const unreadable = await db.getAll('unreadable');
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0].raw.id).toBe('broken');
    expect(unreadable[0].problem).toContain('name');
    db.close();
  });

  it('moves a version-1 session with a case that could not be analysed (NaN values) instead of setting it aside', async () => {
    const name = freshName();
    const legacy = await openVersion1(name);
    const stored = session({ id: 'with-error', results: [result('q1'), errorCaseResult('q2')] });
    await legacy.put('sessions', stored);
    legacy.close();

    const store = await openStore(name);
    const upgraded = await store.get('with-error');
    expect(upgraded).toEqual({ ...stored, revision: 1 });
    expect(upgraded?.results[1].vAll).toBeNaN();
    store.close();
    opened.splice(0);

    const db = await openDB(name);
    expect(await db.getAll('unreadable')).toEqual([]);
    db.close();
  });

  it('moves the inputs out of version-2 bodies into their own records', async () => {
    const name = freshName();
    const stored = { ...session({ id: 'v2-session', results: [result('q2'), result('q1', false)] }), revision: 4 };
    const legacy = await openLegacyDb(name, 2);
    // The version-2 records, as that layout wrote them: the body still held the cases.
    const { name: _n, updatedAt: _u, status: _s, revision: _r, results, ...bodyV2 } = stored;
    await legacy.put('summaries', { id: stored.id, name: stored.name, pipelineName: 'refund-policy', fileName: stored.fileName, createdAt: stored.createdAt,
      updatedAt: stored.updatedAt, status: stored.status, revision: 4, caseCount: 3, casesAnalysed: 2, failuresAnalysed: 1, nextSeq: 2 });
    await legacy.put('bodies', bodyV2);
    await legacy.put('bodies', { id: 'cases-lost', format: 'agentblame-session', version: 1 });
    for (const [seq, r] of results.entries()) await legacy.put('results', { sessionId: stored.id, caseId: r.id, seq, result: r });
    legacy.close();

    const store = await openStore(name);
    expect(await store.get('v2-session')).toEqual(stored);
    store.close();
    opened.splice(0);

    const db = await openDB(name);
    expect(db.version).toBe(DB_VERSION);
    const body = await db.get('bodies', 'v2-session');
    expect(body).not.toHaveProperty('cases');
    expect(body).not.toHaveProperty('pipeline');
    expect(await db.get('inputs', 'v2-session')).toEqual({ id: 'v2-session', fileName: stored.fileName, pipeline: stored.pipeline, cases: stored.cases });
    const unreadable = await db.getAll('unreadable');
    expect(unreadable.map((u) => u.raw.id)).toEqual(['cases-lost']);
    db.close();
  });
});

describe('cases stored in chunks (version 4)', () => {
  const manyCases = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, inputs: { text: `case ${i}` }, seed: i }));

  it('writes the cases in chunks, each put issued after the previous one finished, and reads them back in order', async () => {
    const name = freshName();
    const store = await openStore(name);
    const cases = manyCases(2 * CASES_PER_CHUNK + 5);
    const prototype = globalThis.IDBObjectStore.prototype;
    const originalPut = prototype.put;
    let inFlight = 0;
    const inFlightAtIssue: number[] = [];
    prototype.put = function put(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      const request = originalPut.apply(this, args);
      if (this.name === 'inputChunks') {
        inFlightAtIssue.push(inFlight++);
        request.addEventListener('success', () => inFlight--);
      }
      return request;
    };
    let saved: Awaited<ReturnType<SessionStore['put']>>;
    try {
      saved = await store.put(session({ cases, results: [] }));
    } finally {
      prototype.put = originalPut;
    }
    expect(inFlightAtIssue).toEqual([0, 0, 0]);
    expect((await store.get(saved.id))?.cases).toEqual(cases);
    store.close();
    opened.splice(0);
    const db = await openDB(name);
    expect((await db.get('inputs', saved.id)).cases).toEqual([]);
    expect((await db.getAll('inputChunks')).map((chunk) => chunk.cases.length)).toEqual([CASES_PER_CHUNK, CASES_PER_CHUNK, 5]);
    db.close();
  });

  it('replaces the chunks when the cases change and deletes them with the session', async () => {
    const name = freshName();
    const store = await openStore(name);
    const created = await store.put(session({ cases: manyCases(CASES_PER_CHUNK + 1), results: [] }));
    const fewer = await store.put({ ...created, cases: manyCases(3) });
    expect((await store.get(created.id))?.cases).toEqual(manyCases(3));
    const raw = await openDB(name);
    expect(await raw.count('inputChunks')).toBe(1);
    await store.delete(fewer.id);
    expect(await raw.count('inputChunks')).toBe(0);
    raw.close();
  });

  it('refuses to open a session whose chunks are missing, naming it', async () => {
    const name = freshName();
    const store = await openStore(name);
    const created = await store.put(session({ id: 'chunked', cases: manyCases(CASES_PER_CHUNK + 1), results: [] }));
    const raw = await openDB(name);
    await raw.delete('inputChunks', [created.id, 1]);
    raw.close();
    await expect(store.get(created.id)).rejects.toThrow('The stored cases of session "chunked" are incomplete: 1 of 2 parts were found.');
  });

  it('reads a version-3 database, whose inputs hold their cases inline, and chunks them on the next change', async () => {
    const name = freshName();
    const stored = { ...session({ id: 'v3-session', results: [result('q1')] }), revision: 2 };
    const legacy = await openLegacyDb(name, 3);
    const { summary, body, inputs, results } = legacyRecords(stored, 'old');
    await legacy.put('summaries', summary);
    await legacy.put('bodies', body);
    await legacy.put('inputs', inputs);
    await legacy.put('results', { sessionId: stored.id, caseId: 'q1', seq: 0, result: results[0] });
    legacy.close();

    const store = await openStore(name);
    const read = await store.get('v3-session');
    expect(read).toEqual(stored);
    if (read === undefined) throw new Error('the session should be read');
    await store.put({ ...read, cases: [...read.cases, { id: 'q4', inputs: {} }], results: [] });
    expect((await store.get('v3-session'))?.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
    const raw = await openDB(name);
    expect(raw.version).toBe(DB_VERSION);
    expect(await raw.count('inputChunks')).toBe(1);
    raw.close();
  });
});

describe('trace files kept for the run view (version 5)', () => {
  it('upgrades a version-4 database with every session, chunked and inline, intact and an empty store of run files', async () => {
    const name = freshName();
    // The version-4 layout, as that version created it.
    const legacy = await openLegacyDb(name, 4);
    const stored = { ...session({ id: 'v4-inline', results: [result('q1')] }), revision: 3 };
    const inline = legacyRecords(stored, 'old');
    await legacy.put('summaries', inline.summary);
    await legacy.put('bodies', inline.body);
    await legacy.put('inputs', inline.inputs);
    await legacy.put('results', { sessionId: stored.id, caseId: 'q1', seq: 0, result: inline.results[0] });
    const chunked = { ...session({ id: 'v4-chunked', results: [] }), revision: 1 };
    const inChunks = legacyRecords(chunked, 't');
    await legacy.put('summaries', inChunks.summary);
    await legacy.put('bodies', inChunks.body);
    await legacy.put('inputs', { ...inChunks.inputs, cases: [], caseChunks: 1 });
    await legacy.put('inputChunks', { sessionId: chunked.id, index: 0, cases: chunked.cases });
    await legacy.add('unreadable', { raw: { id: 'odd' }, problem: 'kept', foundAt: '2026-01-01T00:00:00.000Z' });
    legacy.close();

    const store = await openStore(name);
    expect(await store.get('v4-inline')).toEqual(stored);
    expect(await store.get('v4-chunked')).toEqual(chunked);
    expect((await store.list()).map((s) => s.id).sort()).toEqual(['v4-chunked', 'v4-inline']);
    expect(await store.runFiles.list()).toEqual([]);
    store.close();
    opened.splice(0);
    const raw = await openDB(name);
    expect(raw.version).toBe(DB_VERSION);
    expect(await raw.count('unreadable')).toBe(1);
    expect(await raw.count('runFiles')).toBe(0);
    raw.close();
  });

  it('an upgrade from version 1 creates the store of run files too', async () => {
    const name = freshName();
    const legacy = await openVersion1(name);
    await legacy.put('sessions', session({ id: 'old' }));
    legacy.close();
    const store = await openStore(name);
    expect((await store.get('old'))?.id).toBe('old');
    await store.runFiles.keep([{ fileName: 'a.json', blob: new Blob(['{}']), runIds: ['r1'] }]);
    expect((await store.runFiles.list()).length).toBe(1);
  });
});
