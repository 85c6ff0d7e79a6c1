import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AutosaveCore, type AutosaveView } from './autosave-core.ts';
import { StorageFullError } from './errors.ts';
import { SessionStore } from './store.ts';
import { simulateQuota } from './testing/quota.ts';
import { result, session } from './testing/sample-session.ts';

let counter = 0;
const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A manual timer: saves run only when the test calls `fire()` (or flush()). */
function manualTimer() {
  let pending: (() => void) | null = null;
  return {
    schedule(run: () => void) {
      pending = run;
      return () => {
        pending = null;
      };
    },
    get armed() {
      return pending !== null;
    },
  };
}

async function tab(name: string) {
  const store = await SessionStore.open({ name });
  const timer = manualTimer();
  const views: AutosaveView[] = [];
  const core = new AutosaveCore(store, { schedule: (run) => timer.schedule(run), onChange: (view) => views.push(view) });
  cleanups.push(() => {
    core.dispose();
    store.close();
  });
  return { store, core, timer, views };
}

function freshName(): string {
  counter += 1;
  return `autosave-test-${counter}`;
}


describe('AutosaveCore', () => {
  it('debounces changes and appended results into saves that survive a reopen', async () => {
    const name = freshName();
    const { core, timer } = await tab(name);
    await core.create(session({ status: 'idle', results: [] }));
    core.update((s) => ({ ...s, status: 'running' }));
    core.appendResults([result('q1')]);
    core.appendResults([result('q2')]);
    expect(core.view.saveState).toBe('pending');
    expect(timer.armed).toBe(true);
    await core.flush();
    expect(core.view.saveState).toBe('saved');
    core.appendResults([result('q3', false)]);
    await core.flush();

    const other = await tab(name);
    await other.core.refreshList();
    expect(other.core.view.resumeCandidates.map((s) => s.id)).toEqual(['session-1']);
    expect(other.core.view.recent[0]).toMatchObject({ casesAnalysed: 3, failuresAnalysed: 2, status: 'running' });
    const reopened = await other.core.open('session-1');
    expect(reopened.results.map((r) => r.id)).toEqual(['q1', 'q2', 'q3']);
  });

  it('follows a rename made in another tab and merges it with its own later change', async () => {
    const name = freshName();
    const a = await tab(name);
    const b = await tab(name);
    const created = await a.core.create(session({ status: 'running', results: [] }));
    await b.store.rename(created.id, 'renamed in B');
    // A had nothing unsaved, so it takes B's version when the notice arrives.
    await vi.waitFor(() => expect(a.core.view.session?.name).toBe('renamed in B'));

    // Now both change different fields before A saves: A's stale save is merged, not refused.
    a.core.update((s) => ({ ...s, status: 'done' }));
    await b.store.rename(created.id, 'renamed again in B');
    await a.core.flush();
    expect(a.core.view.saveState).toBe('saved');
    const stored = await b.store.get(created.id);
    expect(stored).toMatchObject({ name: 'renamed again in B', status: 'done' });
  });

  it('reports a conflict when both tabs changed the same field, and keeps the local copy', async () => {
    const name = freshName();
    const a = await tab(name);
    const b = await tab(name);
    const created = await a.core.create(session());
    a.core.update((s) => ({ ...s, name: 'A name' }));
    await b.store.rename(created.id, 'B name');
    await a.core.flush();
    expect(a.core.view.saveState).toBe('conflict');
    expect(a.core.view.error?.message).toContain('name');
    expect((await b.store.get(created.id))?.name).toBe('B name');
    const copy = await a.core.saveAsCopy();
    expect(copy.name).toBe('A name (copy)');
    expect((await b.store.list()).map((s) => s.name).sort()).toEqual(['A name (copy)', 'B name']);
  });

  it('shows storage full, keeps the unsaved results, and saves them on retry', async () => {
    const { core, store } = await tab(freshName());
    const created = await core.create(session({ status: 'running', results: [] }));
    const quota = simulateQuota();
    try {
      quota.arm(0);
      core.appendResults([result('q1')]);
      await core.flush();
      expect(core.view.saveState).toBe('error');
      expect(core.view.error).toBeInstanceOf(StorageFullError);
      expect(core.dirty).toBe(true);
    } finally {
      quota.restore();
    }
    await core.retry();
    expect(core.view.saveState).toBe('saved');
    expect((await store.get(created.id))?.results.map((r) => r.id)).toEqual(['q1']);
  });

  it('notices that another tab deleted the open session', async () => {
    const name = freshName();
    const a = await tab(name);
    const b = await tab(name);
    const created = await a.core.create(session());
    await b.store.delete(created.id);
    await vi.waitFor(() => expect(a.core.view.saveState).toBe('deleted'));
    expect(a.core.view.recent).toEqual([]);
  });
});
