import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Autosave, SessionForkedError, type SessionIdentity } from './autosave.ts';
import { buildSession } from './build-session.ts';
import { StorageFullError } from './errors.ts';
import { SessionStore } from './store.ts';
import { simulateQuota } from './testing/quota.ts';
import { result, session as sampleSession, SETTINGS } from './testing/sample-session.ts';
import type { Session } from './types.ts';
import type { CaseResult } from '../engine/types.ts';

let counter = 0;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A manual timer: a scheduled save runs only when the test fires it. */
function manualTimer() {
  let pending: (() => void) | null = null;
  return {
    timer: (run: () => void) => {
      pending = run;
      return () => {
        pending = null;
      };
    },
    get armed() {
      return pending !== null;
    },
    fire() {
      const run = pending;
      pending = null;
      run?.();
    },
  };
}

/** What the page holds: the study's fields, changed by the test as the workbench would. */
interface Page {
  open: boolean;
  status: Session['status'];
  settings: Session['settings'];
  results: CaseResult[];
  /** The definition (edited in place in the Definition view). */
  pipeline?: Session['pipeline'];
}

const base = sampleSession();

async function tab(dbName: string) {
  const store = await SessionStore.open({ name: dbName });
  const clock = manualTimer();
  const page: Page = { open: true, status: 'idle', settings: SETTINGS, results: [] };
  let ids = 0;
  const autosave = new Autosave({
    current: (identity: SessionIdentity) =>
      page.open
        ? buildSession({ ...identity, fileName: base.fileName, pipeline: page.pipeline ?? base.pipeline, cases: base.cases, settings: page.settings, results: page.results, status: page.status })
        : null,
    timer: clock.timer,
    now: () => '2026-11-30T12:00:00.000Z',
    newId: () => `${dbName}-session-${++ids}`,
  });
  autosave.useStore(store);
  cleanups.push(() => store.close());
  return { store, clock, page, autosave };
}

function freshName(): string {
  counter += 1;
  return `autosave-${counter}`;
}

/** A tab on database `name` whose new study was saved with `results`, and the session's id. */
async function savedStudy(name = freshName(), results: CaseResult[] = []) {
  const t = await tab(name);
  t.autosave.startNew('study');
  t.page.results = results;
  t.clock.fire();
  await t.autosave.idle();
  return { ...t, id: t.autosave.view.identity!.id };
}

/** Tab A with a new study saved, and another tab's store B on the same database. */
async function twoTabs() {
  const name = freshName();
  const a = await savedStudy(name);
  const b = await SessionStore.open({ name });
  cleanups.push(() => b.close());
  return { a, b, id: a.id };
}

describe('Autosave', () => {
  it('saves a change after the delay, then only the new results while an analysis runs', async () => {
    const { store, clock, page, autosave } = await tab(freshName());
    autosave.startNew('refund-policy');
    expect(clock.armed).toBe(true);
    clock.fire();
    await autosave.idle();
    const id = autosave.view.identity!.id;
    expect(await store.getSummary(id)).toMatchObject({ name: 'refund-policy', status: 'idle', revision: 1 });

    page.status = 'running';
    autosave.schedule();
    clock.fire();
    await autosave.idle();
    page.results = [result('q1')];
    autosave.schedule();
    clock.fire();
    await autosave.idle();
    // Results alone do not bump the revision: they are merged per case.
    expect(await store.getSummary(id)).toMatchObject({ status: 'running', revision: 2, casesAnalysed: 1 });
  });

  it('flushes asked for while one waits are that one: it reads the page when it runs', async () => {
    const { store, page, autosave } = await tab(freshName());
    let reads = 0;
    Object.defineProperty(page, 'open', { get: () => (reads += 1) > 0 });
    autosave.startNew('study');
    const first = autosave.flush();
    // Let the first save start; three flushes asked for while it is in flight wait as one.
    await Promise.resolve();
    const readsBefore = reads;
    page.status = 'running';
    page.results = [result('q1')];
    void autosave.flush();
    page.results = [result('q1'), result('q2')];
    void autosave.flush();
    page.results = [result('q1'), result('q2'), result('q3')];
    void autosave.flush();
    await first;
    await autosave.idle();
    expect(readsBefore).toBe(1);
    expect(reads).toBe(2);
    expect(await store.getSummary(autosave.view.identity!.id)).toMatchObject({ status: 'running', casesAnalysed: 3 });
  });

  it('renaming while a save is in flight, then closing, never forks the session or leaves it "running"', async () => {
    const { store, clock, page, autosave } = await tab(freshName());
    autosave.startNew('study');
    page.status = 'running';
    clock.fire();
    await autosave.idle();
    const id = autosave.view.identity!.id;
    // The analysis finishes; its save starts, and the user renames before it has landed ...
    page.results = [result('q1'), result('q2', false), result('q3')];
    page.status = 'done';
    autosave.schedule();
    clock.fire();
    const renamed = autosave.rename('  renamed study ');
    expect(autosave.view.identity?.name).toBe('renamed study');
    // ... and closes at once.
    autosave.detach();
    page.open = false;
    await renamed;
    await autosave.idle();

    expect(autosave.view.problem).toBeNull();
    const stored = await store.list();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id, name: 'renamed study', status: 'done', casesAnalysed: 3 });
    expect(await store.listInterrupted()).toEqual([]);
  });

  it('saves the pending change when the study is closed before the timer fires', async () => {
    const { store, clock, page, autosave, id } = await savedStudy();
    page.status = 'done';
    page.results = [result('q1')];
    autosave.schedule();
    autosave.detach();
    page.open = false;
    await autosave.idle();
    expect(clock.armed).toBe(false);
    expect(autosave.view.identity).toBeNull();
    expect(await store.getSummary(id)).toMatchObject({ status: 'done', casesAnalysed: 1 });
  });

  it('new settings replace the stored results without looking like a conflict', async () => {
    const { store, page, autosave, id } = await savedStudy(freshName(), [result('q1'), result('q2')]);
    page.settings = { ...SETTINGS, seed: 99 };
    page.results = [result('q1')];
    await autosave.rename('with seed 99');
    expect(autosave.view.problem).toBeNull();
    const stored = await store.get(id);
    expect(stored?.settings.seed).toBe(99);
    expect(stored?.name).toBe('with seed 99');
    expect(stored?.results.map((r) => r.id)).toEqual(['q1']);
  });

  it('an edited definition replaces the stored results (they were computed with the old code)', async () => {
    const { store, clock, page, autosave, id } = await savedStudy(freshName(), [result('q1'), result('q2')]);
    page.pipeline = { name: base.pipeline!.name, source: `${base.pipeline!.source}\n// edited` };
    page.results = [result('q1', true, { shapley: { planner: 1, retriever: 0 } })];
    autosave.schedule();
    clock.fire();
    await autosave.idle();
    const stored = await store.get(id);
    expect(stored?.pipeline?.source).toContain('// edited');
    expect(stored?.results.map((r) => [r.id, r.shapley?.planner])).toEqual([['q1', 1]]);
  });

  it("merges another tab's rename with this tab's own change (no copy)", async () => {
    const { a, b, id } = await twoTabs();
    await b.rename(id, 'renamed in B');
    a.page.status = 'done';
    a.page.results = [result('q1')];
    a.autosave.schedule();
    a.clock.fire();
    await a.autosave.idle();
    expect(a.autosave.view.problem).toBeNull();
    expect(a.autosave.view.identity).toMatchObject({ id, name: 'renamed in B' });
    expect(await b.list()).toHaveLength(1);
    expect(await b.get(id)).toMatchObject({ name: 'renamed in B', status: 'done' });
  });

  it("keeps both tabs' work when both renamed the session differently", async () => {
    const { a, b, id } = await twoTabs();
    await b.rename(id, 'B name');
    await a.autosave.rename('A name');
    expect(a.autosave.view.problem).toBeInstanceOf(SessionForkedError);
    expect(String((a.autosave.view.problem as Error).message)).toContain('name');
    expect((await b.get(id))?.name).toBe('B name');
    expect((await b.list()).map((s) => s.name).sort()).toEqual(['A name (copy)', 'B name']);
    // The page continues on its copy: later saves go there.
    expect(a.autosave.view.identity?.name).toBe('A name (copy)');
    a.page.status = 'done';
    a.autosave.schedule();
    a.clock.fire();
    await a.autosave.idle();
    expect(a.autosave.view.problem).toBeNull();
    expect((await b.get(a.autosave.view.identity!.id))?.status).toBe('done');
  });

  it('continues an opened stored session without a conflict', async () => {
    const name = freshName();
    const { store, clock, page, autosave } = await tab(name);
    const stored = await store.put(sampleSession({ status: 'idle', name: 'stored' }));
    autosave.adopt({ ...stored, results: [result('q1'), result('q2', false)] });
    page.results = [result('q1'), result('q2', false), result('q3')];
    page.status = 'done';
    autosave.schedule();
    clock.fire();
    await autosave.idle();
    expect(autosave.view.problem).toBeNull();
    expect(await store.list()).toHaveLength(1);
    expect(await store.getSummary(stored.id)).toMatchObject({ name: 'stored', status: 'done', casesAnalysed: 3 });
  });

  it('shows storage full, and saves the results on retry', async () => {
    const { store, clock, page, autosave, id } = await savedStudy();
    const quota = simulateQuota();
    try {
      quota.arm(0);
      page.results = [result('q1')];
      autosave.schedule();
      clock.fire();
      await autosave.idle();
      expect(autosave.view.problem).toBeInstanceOf(StorageFullError);
    } finally {
      quota.restore();
    }
    await autosave.retry();
    expect(autosave.view.problem).toBeNull();
    expect((await store.get(id))?.results.map((r) => r.id)).toEqual(['q1']);
  });
});
