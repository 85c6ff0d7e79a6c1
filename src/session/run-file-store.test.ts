import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageFullError } from './errors.ts';
import { RunFilesTooLargeError } from './run-file-store.ts';
import { SessionStore } from './store.ts';
import { simulateQuota } from './testing/quota.ts';
import { session } from './testing/sample-session.ts';

let counter = 0;
let tick = 0;
const opened: SessionStore[] = [];

function clock(): string {
  tick += 1;
  return new Date(Date.UTC(2026, 0, 2, 9, 0, tick)).toISOString();
}

async function openStore(name = `run-files-${++counter}`, runFileLimit?: number): Promise<SessionStore> {
  const store = await SessionStore.open({ name, now: clock, broadcast: false, ...(runFileLimit !== undefined && { runFileLimit }) });
  opened.push(store);
  return store;
}

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

const file = (fileName: string, text: string, runIds: string[]) => ({ fileName, blob: new Blob([text]), runIds });

describe('RunFileStore', () => {
  it('keeps files opened together as one group and reads them back in their order, after a reopen', async () => {
    const name = `run-files-${++counter}`;
    const store = await openStore(name);
    const { group } = await store.runFiles.keep([file('logs/2.json', '{"b":2}', ['logs/2']), file('logs/10.json', '{"a":10}', ['logs/10']), file('labels.json', '{}', [])]);
    store.close();
    opened.splice(0);

    const again = await openStore(name);
    const groups = await again.runFiles.list();
    expect(groups).toEqual([{ id: group, openedAt: groups[0].openedAt, size: 7 + 8 + 2, files: [
      { fileName: 'logs/2.json', size: 7, runIds: ['logs/2'] },
      { fileName: 'logs/10.json', size: 8, runIds: ['logs/10'] },
      { fileName: 'labels.json', size: 2, runIds: [] },
    ] }]);
    const files = await again.runFiles.read(group);
    expect(files.map((f) => f.fileName)).toEqual(['logs/2.json', 'logs/10.json', 'labels.json']);
    expect(await files[1].blob.text()).toBe('{"a":10}');
    expect(await again.runFiles.find('logs/10')).toEqual({ group, fileName: 'logs/10.json', runId: 'logs/10' });
    expect(await again.runFiles.find('elsewhere')).toBeNull();
  });

  it('lists a group opened within the same millisecond as the last one as the newer', async () => {
    const frozen = () => '2026-01-02T09:00:00.000Z';
    for (let round = 0; round < 8; round++) {
      const store = await SessionStore.open({ name: `run-files-${++counter}`, now: frozen, broadcast: false });
      opened.push(store);
      await store.runFiles.keep([file('old.json', '{}', ['old'])]);
      const { group } = await store.runFiles.keep([file('new.json', '{}', ['new'])]);
      const groups = await store.runFiles.list();
      expect(groups.map((g) => g.id)[0]).toBe(group);
      expect(groups[0].openedAt > groups[1].openedAt).toBe(true);
    }
  });

  it('a file opened again replaces its earlier copy; removing a group removes only its files', async () => {
    const store = await openStore();
    const first = await store.runFiles.keep([file('a.json', 'old', ['r1']), file('b.json', 'bbb', ['r2'])]);
    const second = await store.runFiles.keep([file('a.json', 'newer', ['r1'])]);
    const groups = await store.runFiles.list();
    expect(groups.map((g) => [g.id, g.files.map((f) => f.fileName)])).toEqual([[second.group, ['a.json']], [first.group, ['b.json']]]);
    expect(await (await store.runFiles.read(second.group))[0].blob.text()).toBe('newer');
    expect(await store.runFiles.find('r1')).toMatchObject({ group: second.group });
    await store.runFiles.remove(first.group);
    expect((await store.runFiles.list()).map((g) => g.id)).toEqual([second.group]);
    expect(await store.runFiles.find('r2')).toBeNull();
    expect(await store.runFiles.read(first.group)).toEqual([]);
  });

  it('drops the oldest groups to stay within its limit, and refuses files larger than the limit', async () => {
    const store = await openStore(undefined, 10);
    const a = await store.runFiles.keep([file('a.json', 'aaaa', ['a'])]);
    const b = await store.runFiles.keep([file('b.json', 'bbbb', ['b'])]);
    const c = await store.runFiles.keep([file('c.json', 'cccc', ['c'])]);
    expect(c.evicted).toBe(1);
    expect((await store.runFiles.list()).map((g) => g.id)).toEqual([c.group, b.group]);
    expect(await store.runFiles.read(a.group)).toEqual([]);
    await expect(store.runFiles.keep([file('big.json', 'x'.repeat(11), ['big'])])).rejects.toBeInstanceOf(RunFilesTooLargeError);
    await expect(store.runFiles.keep([file('big.json', 'x'.repeat(11), ['big'])])).rejects.toThrow(/larger than this browser keeps for the run view/);
    expect((await store.runFiles.list()).map((g) => g.id)).toEqual([c.group, b.group]);
  });

  it('a full disk refuses the whole group, keeps what was stored and every session, and says so', async () => {
    const store = await openStore();
    const kept = await store.put(session({ id: 'kept' }));
    const before = await store.runFiles.keep([file('a.json', 'aaa', ['a'])]);
    const quota = simulateQuota();
    try {
      quota.arm(1);
      const failing = store.runFiles.keep([file('b.json', 'b', ['b']), file('c.json', 'c', ['c'])]);
      await expect(failing).rejects.toBeInstanceOf(StorageFullError);
      await expect(failing).rejects.toThrow('could not keep the 2 trace files in this browser');
    } finally {
      quota.restore();
    }
    expect((await store.runFiles.list()).map((g) => g.id)).toEqual([before.group]);
    expect(await store.get('kept')).toEqual(kept);
    // It works again once there is room.
    await store.runFiles.keep([file('b.json', 'b', ['b'])]);
    expect((await store.runFiles.list()).length).toBe(2);
  });

  it('tells its listeners, here and in another store of the same database, when files are kept or removed', async () => {
    const name = `run-files-${++counter}`;
    const here = await SessionStore.open({ name, now: clock });
    const there = await SessionStore.open({ name, now: clock });
    opened.push(here, there);
    let local = 0;
    here.runFiles.subscribe(() => local++);
    const heard = new Promise<void>((resolve) => there.runFiles.subscribe(resolve));
    const { group } = await here.runFiles.keep([file('a.json', 'a', ['a'])]);
    await heard;
    expect(local).toBe(1);
    await here.runFiles.remove(group);
    expect(local).toBe(2);
  });
});
