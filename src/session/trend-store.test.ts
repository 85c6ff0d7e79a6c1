import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeTrends } from '../engine/trends.ts';
import { blamedFailures } from '../engine/testing/trend-results.ts';
import { openDB } from 'idb';
import { splitSession } from './db.ts';
import { SessionStore } from './store.ts';
import { sessionTrendDigest } from './trend-digest.ts';
import { plantedDriftSessions, trendSession } from './testing/trend-sessions.ts';
import { openLegacyDb } from './testing/legacy-db.ts';

let n = 0;
const opened: SessionStore[] = [];
let tick = 0;
const clock = () => new Date(Date.UTC(2026, 5, 1, 0, 0, ++tick)).toISOString();

async function freshStore(name = `trend-store-${++n}-${Math.floor(performance.now())}`): Promise<SessionStore> {
  const store = await SessionStore.open({ name, now: clock, broadcast: false });
  opened.push(store);
  return store;
}

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : 1));

describe('the store\u2019s trend digests', () => {
  it('are the sessions\u2019 own digests: the Trends view computes what the command prints', async () => {
    const store = await freshStore();
    const sessions = plantedDriftSessions(20);
    for (const s of sessions) await store.put(s);
    const digests = await store.trendDigests();
    expect(byId(digests)).toEqual(byId(sessions.map(sessionTrendDigest)));
    expect(computeTrends(digests, { grouping: { by: 'week' } })).toEqual(computeTrends(sessions.map(sessionTrendDigest), { grouping: { by: 'week' } }));
  });

  it('are computed once: a second read loads no session; a save or new results compute that one again', async () => {
    const store = await freshStore();
    const a = await store.put(trendSession('a', '2026-02-02T09:00:00.000Z', blamedFailures('a', 10, { retriever: 5 })));
    await store.put(trendSession('b', '2026-02-03T09:00:00.000Z', blamedFailures('b', 10, { retriever: 2 })));
    await store.trendDigests();
    const get = vi.spyOn(store, 'get');
    await store.trendDigests();
    expect(get).not.toHaveBeenCalled();
    // Re-tagged in the page: a save bumps the revision.
    await store.put({ ...a, results: [], meta: { ...a.meta!, tags: ['prod'] } });
    expect((await store.trendDigests()).find((d) => d.id === 'a')!.tags).toEqual(['prod']);
    expect(get.mock.calls.map((c) => c[0])).toEqual(['a']);
    // Results appended by the autosave (no new revision) change the stamp too.
    await store.putResults('b', blamedFailures('b2', 1, {}).map((r) => ({ ...r, id: 'b-0' })));
    expect(get.mock.calls.map((c) => c[0])).toEqual(['a']);
    await store.trendDigests();
    expect(get.mock.calls.map((c) => c[0])).toEqual(['a', 'b']);
    await store.delete('a');
    expect((await store.trendDigests()).map((d) => d.id)).toEqual(['b']);
  });

  it('a database of version 5 upgrades with its sessions kept and an empty digest store', async () => {
    const name = `trend-upgrade-${++n}`;
    // The layout version 5 made (every store but the digests').
    const old = await openLegacyDb(name, 5);
    const session = { ...trendSession('kept', '2026-02-02T09:00:00.000Z', blamedFailures('k', 4, { retriever: 2 })), revision: 1 };
    const { summary, body, inputs, results } = splitSession(session);
    await old.put('summaries', summary);
    await old.put('bodies', body);
    await old.put('inputs', inputs);
    for (const r of results) await old.put('results', r);
    expect(old.objectStoreNames.contains('trendDigests')).toBe(false);
    old.close();
    const store = await freshStore(name);
    expect((await store.get('kept'))?.results).toHaveLength(4);
    expect((await store.trendDigests()).map((d) => d.id)).toEqual(['kept']);
  });
});
