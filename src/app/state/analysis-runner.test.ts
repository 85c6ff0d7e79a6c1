/**
 * The AnalysisRunner's observable behaviour against the fake pool (src/app/testing/fake-pool.ts):
 * what it shows while a study opens, runs, is re-run under other settings, edited, stopped and
 * closed. Timers are vitest's fake ones, so the re-run pause and the result throttle never depend
 * on how loaded the machine is; model requests go to the loopback fake endpoint (real timers).
 */
import { testRunner } from '../testing/model-host.ts';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { testResult } from '../../engine/testing/results.ts';
import type { Study } from '../importing/study.ts';
import { Navigation } from '../navigation/navigation.svelte.ts';
import { FakePool, fakeResult, fakeSummary } from '../testing/fake-pool.ts';
import { BatchStopper, studyBatchOptions } from '../../engine/batch.ts';
import { poolSize } from '../analysis/pool-size.ts';
import { useFakeEndpoints } from '../../model/testing/use-fake-endpoints.ts';
import { settle } from '../testing/settle.ts';
import { AnalysisRunner } from './analysis-runner.svelte.ts';

// The fake pool's cost is the seed plus one; the tests below count on the default seed being 1.
const SOURCE = 'export default { name: "refund", ... }\n// steps: plan, act';

function study(ids: string[], source: string | null = SOURCE): Study {
  return {
    fileName: 'refund.trace.json',
    name: 'refund',
    ...(source !== null && { pipeline: { name: 'refund', source } }),
    cases: ids.map((id) => ({ id, inputs: { question: id, ...(id.startsWith('pass') && { pass: true }) } })),
    games: [],
  };
}

function setup(workers = 2) {
  const pool = new FakePool();
  const nav = new Navigation();
  const saves = { scheduled: 0, now: 0 };
  const created: number[] = [];
  const runner = testRunner(workers, {
    autosave: { schedule: () => saves.scheduled++, saveNow: () => saves.now++ },
    navigation: nav,
    createPool: (n) => {
      created.push(n);
      return pool;
    },
  });
  return { pool, nav, saves, runner, created };
}

const ids = (runner: AnalysisRunner) => runner.results.map((r) => r?.id);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('AnalysisRunner opening a study', () => {
  it('compiles the definition, analyses every case and aggregates the batch', async () => {
    const { runner, nav, saves } = setup();
    nav.show('case');
    nav.caseId = 'x';
    expect(runner.itemCount).toBe(0);
    await runner.openStudy(study(['q1', 'q2', 'pass3']));
    expect(runner.definition.status).toBe('ready');
    expect(runner.steps).toEqual(['plan', 'act']);
    expect(runner.itemCount).toBe(3);
    expect(ids(runner)).toEqual(['q1', 'q2', 'pass3']);
    expect(runner.finishedResults().map((r) => r.failed)).toEqual([true, true, false]);
    expect(runner.progress).toMatchObject({ status: 'done', done: 3, total: 3, doneThisRun: 3, cost: 6 });
    expect(runner.running).toBe(false);
    // Two failures, the first step credited with all of each.
    expect(runner.batch).toMatchObject({ failures: 2, analyzed: 2 });
    expect(runner.batch!.steps.find((s) => s.step === 'plan')!.meanShapley).toBe(1);
    // A new study starts from the batch view, and is stored at once.
    expect([nav.view, nav.caseId]).toEqual(['batch', null]);
    expect(saves.now).toBeGreaterThan(0);
    expect(runner.openedSource).toBe(SOURCE);
  });

  it('keeps the view when asked to (a link being reopened) and applies given settings', async () => {
    const { runner, nav, pool } = setup();
    nav.openCase('q2');
    await runner.openStudy(study(['q1', 'q2']), { keepNavigation: true, settings: { ...DEFAULT_SETTINGS, seed: 4 } });
    expect([nav.view, nav.caseId]).toEqual(['case', 'q2']);
    expect(runner.settings.seed).toBe(4);
    // The fake pool's cost is the seed plus one: the results were analysed under the given seed.
    expect(runner.finishedResults().map((r) => r.cost)).toEqual([5, 5]);
    expect(pool.jobs).toHaveLength(1);
  });

  it('shows a definition that does not compile, with the Definition view, and analyses nothing', async () => {
    const { runner, nav, pool } = setup();
    await runner.openStudy(study(['q1'], 'syntax error here'));
    expect(runner.definition).toEqual({ status: 'error', problem: { message: 'Unexpected token (1:7)', line: 1, column: 7 } });
    expect(nav.view).toBe('definition');
    expect(pool.jobs).toHaveLength(0);
    expect(runner.results).toEqual([]);
    expect(runner.batch).toBeNull();
  });

  it('takes the cases and the name of a definition opened on its own', async () => {
    const { runner, pool } = setup();
    pool.summaryExtra = { cases: [{ id: 'own1', inputs: {} }, { id: 'own2', inputs: {} }] };
    await runner.openStudy({ fileName: 'x.pipeline.js', name: 'x', pipeline: { name: 'pipeline', source: SOURCE }, cases: [], games: [] });
    expect(runner.study?.pipeline?.name).toBe('refund');
    expect(runner.study?.cases.map((c) => c.id)).toEqual(['own1', 'own2']);
    expect(ids(runner)).toEqual(['own1', 'own2']);
  });

  it('analyses game tables without a definition, their players as the steps', async () => {
    const { runner } = setup();
    await runner.openStudy({ fileName: 'g.game.json', name: 'g', cases: [], games: [{ id: 'g1', players: ['x', 'y'], values: Float64Array.of(0, 1, 0, 1) }] });
    expect(runner.definition).toEqual({ status: 'none' });
    expect(runner.steps).toEqual(['x', 'y']);
    expect(ids(runner)).toEqual(['g1']);
  });

  it('restores saved results without running, as interrupted, stopped or done', async () => {
    const saved = [testResult({ id: 'q1', players: ['plan', 'act'], cost: 7 })];
    const cases = [
      { autoRun: false, stopped: false, results: saved, status: 'interrupted' },
      { autoRun: false, stopped: true, results: saved, status: 'cancelled' },
      { autoRun: false, stopped: false, results: [...saved, testResult({ id: 'q2', players: ['plan', 'act'] })], status: 'done' },
    ] as const;
    for (const { results, status, ...options } of cases) {
      const { runner, pool } = setup();
      await runner.openStudy(study(['q1', 'q2']), { results: [...results], ...options });
      expect(pool.jobs).toHaveLength(0);
      expect(runner.results[0]?.cost).toBe(7);
      expect(runner.progress).toMatchObject({ status, done: results.length, total: 2, cost: 7 });
    }
  });

  it('resumes a restored study by analysing only the cases without a result', async () => {
    const { runner, pool } = setup();
    await runner.openStudy(study(['q1', 'q2', 'q3']), { results: [testResult({ id: 'q2', players: ['plan', 'act'], cost: 7 })], autoRun: false });
    await runner.analyze();
    expect(pool.jobs[0].items.map((i) => i.index)).toEqual([0, 2]);
    expect(runner.finishedResults().map((r) => [r.id, r.cost])).toEqual([['q1', 2], ['q2', 7], ['q3', 2]]);
    expect(runner.progress).toMatchObject({ status: 'done', done: 3, doneThisRun: 2 });
  });
});

describe('AnalysisRunner settings', () => {
  it('re-runs after a pause under new settings, and shows cached results again when they come back', async () => {
    const { runner, pool, saves } = setup();
    await runner.openStudy(study(['q1', 'q2']));
    const scheduled = saves.scheduled;
    const before = runner.results.map((r) => r?.cost);
    runner.updateSettings({ seed: 5 });
    // Other settings: the previous results stay on show, marked, and none of them counts as the new
    // settings' (nothing to save) until the re-run, which waits for the next keystroke.
    expect(runner.previousShown).toBe(true);
    expect(runner.results.map((r) => r?.cost)).toEqual(before);
    expect(runner.currentResults()).toEqual([]);
    expect(saves.scheduled).toBe(scheduled + 1);
    runner.updateSettings({ seed: 6 });
    await vi.advanceTimersByTimeAsync(349);
    expect(pool.jobs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitUntil(() => runner.progress?.status === 'done');
    // One re-run, for the last value typed.
    expect(pool.jobs.map((j) => j.settings.seed)).toEqual([DEFAULT_SETTINGS.seed, 6]);
    expect(runner.finishedResults().map((r) => r.cost)).toEqual([7, 7]);
    runner.updateSettings({ seed: DEFAULT_SETTINGS.seed });
    expect(runner.finishedResults().map((r) => r.cost)).toEqual([2, 2]);
    await vi.advanceTimersByTimeAsync(400);
    expect(pool.jobs).toHaveLength(2);
  });

  it('ignores a patch that changes nothing (a field firing change again on blur)', async () => {
    const { runner, pool, saves } = setup();
    await runner.openStudy(study(['q1']));
    const scheduled = saves.scheduled;
    runner.updateSettings({ seed: DEFAULT_SETTINGS.seed, fixChoice: runner.settings.fixChoice });
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.jobs).toHaveLength(1);
    expect(saves.scheduled).toBe(scheduled);
  });

  it('re-runs for a fix choice only when it is not the step\'s default fix', async () => {
    const { runner, pool } = setup();
    await runner.openStudy(study(['q1']));
    runner.chooseFix('plan', 'oracle');
    expect(runner.settings.fixChoice).toEqual({ plan: 'oracle' });
    expect(ids(runner)).toEqual(['q1']);
    await vi.advanceTimersByTimeAsync(400);
    expect(pool.jobs).toHaveLength(1);
    runner.chooseFix('plan', 'repair');
    expect(runner.previousShown).toBe(true);
    expect(runner.currentResults()).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    await vi.waitUntil(() => runner.progress?.status === 'done');
    expect(pool.jobs).toHaveLength(2);
    expect(pool.jobs[1].settings.fixChoice).toEqual({ plan: 'repair' });
  });

  it('changes only the aggregation when the batch bound changes', async () => {
    const { runner, pool } = setup();
    await runner.openStudy(study(['q1', 'q2', 'pass3']));
    const normal = runner.batch!.steps[0].ci;
    runner.batchBound = 'bernstein';
    const bernstein = runner.batch!.steps[0].ci;
    expect(bernstein).not.toEqual(normal);
    expect(bernstein[1] - bernstein[0]).toBeGreaterThan(normal[1] - normal[0]);
    expect(pool.jobs).toHaveLength(1);
  });

  it('stops once the top step separates when asked (the command\'s batch stop), and analyses the rest when no longer asked', async () => {
    const { runner, pool } = setup();
    runner.batchBound = 'anytime';
    runner.batchStop = true;
    const ids100 = Array.from({ length: 100 }, (_, k) => `q${k}`);
    await runner.openStudy(study(ids100));
    // The reference: the fake pool's results fed in case order to the stopper directly.
    const stopper = new BatchStopper(studyBatchOptions(fakeSummary(SOURCE), DEFAULT_SETTINGS.delta, 'anytime'));
    const reference = study(ids100).cases.findIndex((caseDef, index) => stopper.push(fakeResult({ kind: 'case', index, caseDef }, { settings: DEFAULT_SETTINGS, players: ['plan', 'act'] }))) + 1;
    expect(reference).toBeGreaterThan(1);
    expect(reference).toBeLessThan(100);
    expect(runner.finishedResults()).toHaveLength(reference);
    expect(runner.batch?.stoppedEarly).toBe(true);
    expect(runner.batch?.analyzed).toBe(reference);
    expect(runner.progress?.status).toBe('done');
    expect(pool.jobs.length).toBeGreaterThan(0);
    runner.setBatchStop(false);
    await settle(() => runner.finishedResults().length === 100 && runner.progress?.status === 'done', 'the rest analysed');
    expect(runner.finishedResults()).toHaveLength(100);
    expect(runner.batch?.stoppedEarly).toBeUndefined();
  });

  it('the bandit stop: runs the cases with shared step runs, stops where the bandit rule says, and reopens stopped there', async () => {
    const { runner, pool } = setup();
    runner.batchStop = true;
    await runner.openStudy(study(['q0']));
    runner.setBatchStopRule('bandit');
    expect(runner.settings.shareSteps).toBe(true);
    const ids100 = Array.from({ length: 100 }, (_, k) => `q${k}`);
    await runner.openStudy(study(ids100), { keepSettings: true });
    const stopper = new BatchStopper(studyBatchOptions(fakeSummary(SOURCE), DEFAULT_SETTINGS.delta, 'normal', 'bandit'));
    const settings = { ...DEFAULT_SETTINGS, shareSteps: true };
    const reference = study(ids100).cases.findIndex((caseDef, index) => stopper.push(fakeResult({ kind: 'case', index, caseDef }, { settings, players: ['plan', 'act'] }))) + 1;
    expect(reference).toBeGreaterThan(1);
    expect(runner.finishedResults()).toHaveLength(reference);
    expect(pool.jobs.at(-1)!.settings.shareSteps).toBe(true);
    expect(runner.batch?.stoppedEarly).toBe(true);
    const saved = runner.finishedResults();
    const again = setup();
    await again.runner.openStudy(study(ids100), { results: [...saved], settings, autoRun: true, batch: { bound: 'normal', stop: true, rule: 'bandit' } });
    expect(again.pool.jobs).toHaveLength(0);
    expect(again.runner.batchStopRule).toBe('bandit');
    expect(again.runner.batch).toEqual(runner.batch);
  });

  it('reopens a session that stopped early as done, stopped there, without analysing or offering to resume', async () => {
    const ids100 = Array.from({ length: 100 }, (_, k) => `q${k}`);
    const first = setup();
    first.runner.batchBound = 'anytime';
    first.runner.batchStop = true;
    await first.runner.openStudy(study(ids100));
    const saved = first.runner.finishedResults();
    expect(saved.length).toBeLessThan(100);
    const savedBatch = first.runner.batch!;
    // Saved as done (opened with autoRun) or as running (the page closed before its last save): both read as done.
    for (const autoRun of [true, false]) {
      const { runner, pool } = setup();
      await runner.openStudy(study(ids100), { results: [...saved], autoRun, batch: { bound: 'anytime', stop: true } });
      expect(pool.jobs).toHaveLength(0);
      expect([runner.batchBound, runner.batchStop]).toEqual(['anytime', true]);
      expect(runner.progress).toMatchObject({ status: 'done', done: saved.length, total: 100 });
      expect(runner.batch).toEqual(savedBatch);
      expect(runner.batch?.stoppedEarly).toBe(true);
      // Turning the stop off analyses the rest, as before a reload.
      runner.setBatchStop(false);
      await settle(() => runner.finishedResults().length === 100 && runner.progress?.status === 'done', 'the rest analysed');
      expect(runner.batch?.stoppedEarly).toBeUndefined();
    }
    // A session without the batch stop (older ones) with fewer results is still an interrupted analysis.
    const old = setup();
    await old.runner.openStudy(study(ids100), { results: [...saved], autoRun: false, batch: { bound: 'normal', stop: false } });
    expect(old.pool.jobs).toHaveLength(0);
    expect(old.runner.batchStop).toBe(false);
    expect(old.runner.progress?.status).toBe('interrupted');
  });

  it('gives a new study the defaults, and passes its case time limit to the pool', async () => {
    const { runner, pool } = setup();
    expect(runner.defaultSettings()).toEqual(DEFAULT_SETTINGS);
    expect(runner.defaultSettings()).not.toBe(runner.defaultSettings());
    runner.caseTimeoutS = 3;
    await runner.openStudy(study(['q1']));
    runner.updateSettings({ seed: 9 });
    expect(runner.settings.seed).toBe(9);
    await runner.openStudy(study(['q1']));
    expect(runner.settings).toEqual(DEFAULT_SETTINGS);
    expect(pool.caseTimeoutMs).toBe(3000);
  });
});

describe('AnalysisRunner while running', () => {
  it('shows results in throttled updates, and at once when asked (the page being left)', async () => {
    const { runner, pool } = setup();
    const waiting = pool.whenWaiting();
    const opened = runner.openStudy(study(['q1', 'q2', 'slow3']));
    await waiting;
    expect(runner.running).toBe(true);
    // Two results arrived; the page has not been told yet.
    expect(runner.finishedResults()).toEqual([]);
    runner.flushPending();
    expect(ids(runner)).toEqual(['q1', 'q2', undefined]);
    expect(runner.progress).toMatchObject({ status: 'running', done: 2, total: 3 });
    pool.release();
    await opened;
    expect(ids(runner)).toEqual(['q1', 'q2', 'slow3']);
  });

  it('shows results on the throttle\'s timer without being asked', async () => {
    const { runner, pool } = setup();
    const waiting = pool.whenWaiting();
    const opened = runner.openStudy(study(['q1', 'slow2']));
    await waiting;
    await vi.advanceTimersByTimeAsync(199);
    expect(runner.finishedResults()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ids(runner)).toEqual(['q1', undefined]);
    pool.release();
    await opened;
  });

  it('stops on cancel, keeping the finished results, and resumes the rest on analyze', async () => {
    const { runner, pool, saves } = setup();
    const waiting = pool.whenWaiting();
    const opened = runner.openStudy(study(['q1', 'slow2', 'q3']));
    await waiting;
    const scheduled = saves.scheduled;
    runner.cancel();
    await opened;
    expect(runner.running).toBe(false);
    expect(runner.progress).toMatchObject({ status: 'cancelled', done: 1 });
    expect(ids(runner)).toEqual(['q1', undefined, undefined]);
    expect(saves.scheduled).toBe(scheduled + 1);
    // Cancelling again (nothing runs) changes nothing.
    runner.cancel();
    expect(saves.scheduled).toBe(scheduled + 1);
    const again = runner.analyze();
    await vi.waitUntil(() => pool.jobs.length === 2);
    pool.release();
    await again;
    expect(pool.jobs[1].items.map((i) => i.index)).toEqual([1, 2]);
    expect(ids(runner)).toEqual(['q1', 'slow2', 'q3']);
    expect(runner.progress).toMatchObject({ status: 'done', done: 3 });
  });

  // Results received under the old settings must not be shown (nor saved) as results of the new ones.
  it('drops a stopped run\'s late results when the settings have changed', async () => {
    const { runner, pool } = setup();
    const waiting = pool.whenWaiting();
    const opened = runner.openStudy(study(['q1', 'slow2']));
    await waiting;
    runner.updateSettings({ seed: 3 });
    runner.cancel();
    await opened;
    expect(runner.results).toEqual([]);
  });
});

describe('AnalysisRunner progress beside the results on show', () => {
  // The page says "Done" from the progress and "Waiting for the first results" from an empty batch:
  // a run of the old settings ending before the new settings' re-run must not leave both on show.
  it('never says Done while waiting for the first results of settings changed mid-run', async () => {
    const { runner, pool } = setup();
    const waiting = pool.whenWaiting();
    const opened = runner.openStudy(study(['slow1']));
    await waiting;
    runner.updateSettings({ seed: 3 });
    expect(runner.batch).toBeNull();
    const next = pool.whenWaiting();
    pool.release();
    await opened;
    expect(runner.batch).toBeNull();
    expect(runner.progress?.status).toBe('running');
    // The new settings' run goes on at once (the old one is over), and ends Done with its results.
    await next;
    expect(pool.jobs.map((j) => j.settings.seed)).toEqual([DEFAULT_SETTINGS.seed, 3]);
    pool.release();
    await vi.waitUntil(() => runner.progress?.status === 'done');
    expect(runner.finishedResults().map((r) => r.cost)).toEqual([4]);
    expect(runner.batch).not.toBeNull();
  });

  it('after switching back mid-run to settings whose results are all cached, says Done with their figures', async () => {
    const { runner, pool } = setup();
    const first = pool.whenWaiting();
    const opened = runner.openStudy(study(['slow1']));
    await first;
    pool.release();
    await opened;
    const second = pool.whenWaiting();
    runner.updateSettings({ seed: 3 });
    await vi.advanceTimersByTimeAsync(350);
    await second;
    runner.updateSettings({ seed: DEFAULT_SETTINGS.seed });
    expect(runner.finishedResults().map((r) => r.cost)).toEqual([2]);
    // The seed-3 run ends before the re-run's pause is over.
    pool.release();
    await vi.waitUntil(() => runner.progress?.status !== 'running');
    expect(runner.progress).toMatchObject({ status: 'done', done: 1, total: 1, cost: 2 });
  });
});

describe('AnalysisRunner editing and closing', () => {
  it('keeps the working definition and its results when an edit does not compile', async () => {
    const { runner, pool } = setup();
    await runner.openStudy(study(['q1']));
    const before = runner.results;
    await runner.rerunDefinition('syntax error');
    expect(runner.editProblem).toEqual({ message: 'Unexpected token (1:7)', line: 1, column: 7 });
    expect(runner.definition.status).toBe('ready');
    expect(runner.results).toBe(before);
    expect(runner.study?.pipeline?.source).toBe(SOURCE);
    expect(pool.jobs).toHaveLength(1);
  });

  it('re-runs an edit that compiles, keeping the view, the settings and what Revert goes back to', async () => {
    const { runner, nav, pool } = setup();
    await runner.openStudy(study(['q1', 'q2']));
    runner.updateSettings({ seed: 2 });
    await vi.advanceTimersByTimeAsync(400);
    await vi.waitUntil(() => runner.progress?.status === 'done');
    await runner.rerunDefinition('syntax error');
    nav.show('definition');
    const edit = 'export default { name: "refund" }\n// steps: plan, act, check';
    await runner.rerunDefinition(edit);
    expect(runner.editProblem).toBeNull();
    expect(runner.study?.pipeline?.source).toBe(edit);
    expect(runner.openedSource).toBe(SOURCE);
    expect(runner.steps).toEqual(['plan', 'act', 'check']);
    expect(nav.view).toBe('definition');
    expect(runner.settings.seed).toBe(2);
    // The edit is compiled once (the runner reuses that outcome) and analysed afresh.
    expect(pool.loads.filter((s) => s === edit)).toHaveLength(1);
    expect(runner.finishedResults().map((r) => r.players)).toEqual([['plan', 'act', 'check'], ['plan', 'act', 'check']]);
  });

  it('opens an edit of a definition that did not compile as the study\'s definition', async () => {
    const { runner } = setup();
    await runner.openStudy(study(['q1'], 'syntax error'));
    await runner.rerunDefinition(SOURCE);
    expect(runner.definition.status).toBe('ready');
    expect(ids(runner)).toEqual(['q1']);
    expect(runner.openedSource).toBe('syntax error');
  });

  it('closes the study: nothing open, the view reset, a running analysis stopped', async () => {
    const { runner, nav, pool } = setup();
    const waiting = pool.whenWaiting();
    const opened = runner.openStudy(study(['slow1']));
    await waiting;
    nav.openCase('slow1');
    runner.close();
    await opened;
    expect(runner.study).toBeNull();
    expect(runner.definition).toEqual({ status: 'none' });
    expect([runner.results, runner.progress, runner.openedSource, runner.batch]).toEqual([[], null, null, null]);
    expect([nav.view, nav.caseId]).toEqual(['batch', null]);
    expect(runner.itemCount).toBe(0);
  });
});

describe('AnalysisRunner workers', () => {
  it('starts its pool once, sized by the worker count, before the first definition', async () => {
    const { runner, created, pool } = setup(3);
    runner.startWorkers();
    expect(created).toEqual([3]);
    await runner.openStudy(study(['q1']));
    expect(created).toEqual([3]);
    expect(pool.loads).toHaveLength(1);
  });

  it('takes the worker count from ?workers=N within 1-16, else one per core less one', () => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 8 });
    for (const [search, expected] of [['?workers=3', 3], ['?workers=16', 16], ['?workers=17', poolSize(8)], ['?workers=0', poolSize(8)], ['?workers=2.5', poolSize(8)], ['', poolSize(8)]] as const) {
      vi.stubGlobal('location', { search });
      expect(AnalysisRunner.workersForPage()).toBe(expected);
    }
    expect(poolSize(8)).toBe(7);
  });
});

describe('AnalysisRunner model requests', () => {
  const fake = useFakeEndpoints();

  /** A runner on real timers and a fresh IndexedDB, whose fake endpoint holds every request after the first. */
  async function heldRunner() {
    vi.useRealTimers();
    vi.stubGlobal('indexedDB', new IDBFactory());
    const endpoint = await fake();
    const { runner } = setup();
    runner.model.connection.baseUrl = endpoint.url;
    runner.model.connection.askAbove = 1;
    return { runner, endpoint };
  }

  it('shows the model requests of a run, holds them above the threshold until sent, and keeps them', async () => {
    const { runner, endpoint } = await heldRunner();
    const opened = runner.openStudy(study(['model1', 'model2', 'q3']));
    // The first request is sent; the second waits for the user's go.
    await settle(() => runner.modelActivity?.held === true, 'the second request held');
    expect(endpoint.requests).toHaveLength(1);
    expect(runner.running).toBe(true);
    runner.sendHeldRequests();
    expect(runner.modelActivity?.held).toBe(false);
    await opened;
    expect(endpoint.requests.map((r) => r.messages[0].content)).toEqual(['case model1', 'case model2']);
    expect(runner.modelActivity).toMatchObject({ held: false, done: 2, failed: 0, endpoint: endpoint.url, usage: { requests: 2, cacheHits: 0 } });
    // Kept in the page's response store: the same study again asks the endpoint nothing.
    await settle(async () => (await runner.model.store.count()) === 2, 'both responses stored');
    await runner.openStudy(study(['model1', 'model2']));
    expect(endpoint.requests).toHaveLength(2);
    expect(runner.modelActivity).toMatchObject({ done: 0, usage: { requests: 0, cacheHits: 2 } });
    // A study without model steps shows no model activity.
    await runner.openStudy(study(['q1']));
    expect(runner.modelActivity).toBeNull();
  });

  it('stops the held requests with the analysis', async () => {
    const { runner, endpoint } = await heldRunner();
    const opened = runner.openStudy(study(['model1', 'model2']));
    await settle(() => runner.modelActivity?.held === true, 'the second request held');
    runner.cancel();
    await opened;
    expect(runner.progress?.status).toBe('cancelled');
    expect(runner.modelActivity).toMatchObject({ held: false, done: 1 });
    expect(endpoint.requests).toHaveLength(1);
  });
});
