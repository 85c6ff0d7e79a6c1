/**
 * SessionSync, the page's face of the autosave: against fake-indexeddb (a fresh database each
 * test) and the fake browser's page events, with the page's state classes wired as App.svelte
 * wires them (the analysis pool and the importer faked).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageFullError, StorageUnavailableError } from '../../session/errors.ts';
import { simulateQuota } from '../../session/testing/quota.ts';
import { exportSessionFile, parseSessionFile } from '../../session/session-file.ts';
import { studyFingerprint } from '../../session/study-fingerprint.ts';
import type { Study } from '../importing/study.ts';
import { installFakeBrowser, type FakeBrowser } from '../testing/fake-browser.ts';
import { pageState, type PageState } from '../testing/page-state.ts';
import { settle, turns } from '../testing/settle.ts';

const SOURCE = 'export default { name: "refund" }';

function study(ids: string[]): Study {
  return { fileName: 'refund.trace.json', name: 'refund', pipeline: { name: 'refund', source: SOURCE }, cases: ids.map((id) => ({ id, inputs: {} })), games: [] };
}

let page: PageState;
let browser: FakeBrowser;

beforeEach(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  browser = installFakeBrowser();
  page = pageState();
});
afterEach(() => {
  page.sync.store?.close();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The open study's stored session, once it holds `count` results. */
async function storedWith(count: number) {
  const id = page.sync.identity!.id;
  await settle(async () => ((await page.sync.store!.get(id))?.results.length ?? -1) === count && !page.sync.saving, `a stored session with ${count} results`);
  return (await page.sync.store!.get(id))!;
}

describe('SessionSync', () => {
  it('opens the store; where IndexedDB is missing, says so instead', async () => {
    await page.sync.init();
    expect(page.sync.store).not.toBeNull();
    expect(page.sync.problem).toBeNull();
    vi.stubGlobal('indexedDB', undefined);
    const other = pageState();
    await other.sync.init();
    expect(other.sync.store).toBeNull();
    expect(other.sync.problem).toBeInstanceOf(StorageUnavailableError);
  });

  it('stores a new study as a new session, with its results as they are shown', async () => {
    await page.sync.init();
    await page.opener.openNewStudy(study(['q1', 'q2']));
    expect(page.sync.identity).toMatchObject({ name: 'refund' });
    const stored = await storedWith(2);
    expect(stored).toMatchObject({ name: 'refund', fileName: 'refund.trace.json', status: 'done', settings: page.runner.settings });
    expect(stored.results.map((r) => r.id)).toEqual(['q1', 'q2']);
    expect(page.sync.problem).toBeNull();
  });

  it('saves a change a moment after it is scheduled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await page.sync.init();
    await page.opener.openNewStudy(study(['q1']));
    const first = await storedWith(1);
    page.runner.settings = { ...page.runner.settings, seed: 8 };
    page.sync.schedule();
    await vi.advanceTimersByTimeAsync(590);
    await turns();
    expect((await page.sync.store!.get(first.id))!.settings.seed).toBe(first.settings.seed);
    await vi.advanceTimersByTimeAsync(10);
    await settle(async () => (await page.sync.store!.get(first.id))!.settings.seed === 8, 'the scheduled save stored');
  });

  it('stores no session for a new study whose definition does not load, until an edit of it compiles; what was stored stays', async () => {
    await page.sync.init();
    await page.opener.openNewStudy(study(['q1']));
    const kept = await storedWith(1);
    const broken: Study = { ...study(['q1']), fileName: 'broken.pipeline.js', pipeline: { name: 'broken', source: 'syntax error' } };
    await page.opener.openNewStudy(broken);
    expect(page.runner.definition.status).toBe('error');
    await page.sync.flush();
    await page.runner.close();
    page.sync.detach();
    await page.sync.flush();
    expect((await page.sync.store!.list()).map((s) => s.id)).toEqual([kept.id]);

    // Opened again and mended in the Definition view: stored then, beside the first.
    await page.opener.openNewStudy(broken);
    await page.runner.rerunDefinition(SOURCE);
    await storedWith(1);
    expect((await page.sync.store!.list()).map((s) => s.id).sort()).toEqual([kept.id, page.sync.identity!.id].sort());
  });

  it('renames the open session, shown at once and stored', async () => {
    await page.sync.init();
    await page.opener.openNewStudy(study(['q1']));
    await storedWith(1);
    const renaming = page.sync.rename('  refund, second look ');
    expect(page.sync.identity?.name).toBe('refund, second look');
    await renaming;
    expect((await page.sync.store!.get(page.sync.identity!.id))?.name).toBe('refund, second look');
  });

  it('continues an adopted session, and forgets it on detach after saving its last change', async () => {
    await page.sync.init();
    await page.opener.openNewStudy(study(['q1']));
    const first = await storedWith(1);
    page.sync.detach();
    expect(page.sync.identity).toBeNull();
    page.sync.adopt(first);
    expect(page.sync.identity).toMatchObject({ id: first.id, name: 'refund' });
    page.runner.updateSettings({ seed: 42 });
    page.sync.detach();
    await settle(async () => (await page.sync.store!.get(first.id))?.settings.seed === 42, 'the last change saved');
  });

  it('builds the open study as a session (null when none is open); an interrupted one is stored as running', async () => {
    await page.sync.init();
    expect(page.sync.current()).toBeNull();
    await page.opener.openNewStudy(study(['q1', 'q2']));
    const current = page.sync.current()!;
    expect(current).toMatchObject({ id: page.sync.identity!.id, status: 'done', fileName: 'refund.trace.json' });
    expect(current.results.map((r) => r.id)).toEqual(['q1', 'q2']);
    expect(current.batch).toEqual(page.runner.batch);
    await page.runner.openStudy(study(['q1', 'q2']), { results: current.results.slice(0, 1), autoRun: false });
    expect(page.runner.progress?.status).toBe('interrupted');
    expect(page.sync.current()?.status).toBe('running');
  });

  it('saves the batch interval and stop with the study; a reload reopens a stopped-early study as done, stopped there', async () => {
    await page.sync.init();
    page.runner.setBatchBound('anytime');
    page.runner.setBatchStop(true);
    const ids = Array.from({ length: 100 }, (_, k) => `q${k}`);
    await page.opener.openNewStudy(study(ids));
    const kept = page.runner.finishedResults().length;
    expect(kept).toBeLessThan(100);
    expect(page.runner.batch?.stoppedEarly).toBe(true);
    const stored = await storedWith(kept);
    await settle(async () => (await page.sync.store!.get(stored.id))?.status === 'done' && !page.sync.saving, 'stored as done');
    const saved = (await page.sync.store!.get(stored.id))!;
    // The mark is the command's: its fingerprint is the study's, and it reads back from a file.
    expect(saved.study).toEqual({ fingerprint: studyFingerprint(saved), batchBound: 'anytime', batchStop: true });
    const fromFile = parseSessionFile(exportSessionFile(saved));
    expect(fromFile.study).toEqual(saved.study);
    expect(studyFingerprint(fromFile)).toBe(saved.study!.fingerprint);
    expect(saved.batch?.stoppedEarly).toBe(true);

    // A reload: a new page on the same store, whose own choices are the defaults.
    const reloaded = pageState();
    await reloaded.sync.init();
    expect([reloaded.runner.batchBound, reloaded.runner.batchStop]).toEqual(['normal', false]);
    expect(await reloaded.opener.openStored(stored.id)).toBe(true);
    expect([reloaded.runner.batchBound, reloaded.runner.batchStop]).toEqual(['anytime', true]);
    expect(reloaded.pool.jobs).toHaveLength(0);
    expect(reloaded.runner.progress).toMatchObject({ status: 'done', done: kept, total: 100 });
    expect(reloaded.runner.batch).toEqual(saved.batch);
    reloaded.sync.store?.close();

    // A session saved without the mark (before it was saved) reads as normal and off: the rest is analysed.
    const old = pageState();
    await old.sync.init();
    old.runner.batchStop = true;
    const { study: _mark, ...unmarked } = saved;
    await old.opener.openSession({ ...unmarked, id: 'old-session' });
    expect([old.runner.batchBound, old.runner.batchStop]).toEqual(['normal', false]);
    await settle(() => old.runner.finishedResults().length === 100 && old.runner.progress?.status === 'done', 'the rest analysed');
    old.sync.store?.close();
  });

  it('builds a session under a fresh identity when nothing could be stored', async () => {
    vi.stubGlobal('indexedDB', undefined);
    await page.sync.init();
    await page.opener.openNewStudy(study(['q1']));
    const a = page.sync.current()!;
    expect(a.results.map((r) => r.id)).toEqual(['q1']);
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('saves the results not yet shown when the page is hidden', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await page.sync.init();
    const waiting = page.pool.whenWaiting();
    const opened = page.opener.openNewStudy(study(['q1', 'q2', 'slow3']));
    await waiting;
    const id = page.sync.identity!.id;
    await settle(async () => (await page.sync.store!.get(id)) !== undefined && !page.sync.saving, 'the study stored on opening');
    expect((await page.sync.store!.get(id))!.results).toEqual([]);
    browser.hide();
    const stored = await storedWith(2);
    expect(stored.results.map((r) => r.id)).toEqual(['q1', 'q2']);
    expect(page.runner.finishedResults()).toHaveLength(2);
    page.pool.release();
    await opened;
  });

  it('saves the results not yet shown when the page is left (pagehide)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await page.sync.init();
    const waiting = page.pool.whenWaiting();
    const opened = page.opener.openNewStudy(study(['q1', 'slow2']));
    await waiting;
    browser.window.dispatchEvent(new Event('pagehide'));
    expect((await storedWith(1)).results.map((r) => r.id)).toEqual(['q1']);
    page.pool.release();
    await opened;
  });

  it('shows a full disk as its problem, and saves again on retry', async () => {
    await page.sync.init();
    await page.opener.openNewStudy(study(['q1']));
    const first = await storedWith(1);
    const quota = simulateQuota();
    try {
      quota.arm(0);
      page.runner.updateSettings({ seed: 5 });
      page.sync.flush();
      await settle(() => page.sync.problem !== null, 'the failed save shown');
      expect(page.sync.problem).toBeInstanceOf(StorageFullError);
    } finally {
      quota.restore();
    }
    expect((await page.sync.store!.get(first.id))!.settings.seed).toBe(first.settings.seed);
    page.sync.retry();
    await settle(async () => (await page.sync.store!.get(first.id))!.settings.seed === 5, 'the retried save stored');
    expect(page.sync.problem).toBeNull();
  });
});
