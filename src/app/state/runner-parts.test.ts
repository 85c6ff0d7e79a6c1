/**
 * The AnalysisRunner's parts, each alone: the results per settings and those on screen, their
 * batched arrival, the progress, and the early stop (the runner's own tests drive them together).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testResult } from '../../engine/testing/results.ts';
import { EarlyStop } from './early-stop.svelte.ts';
import { ResultBatches, type Arrived } from './result-batches.ts';
import { RunProgressState } from './run-progress-state.svelte.ts';
import { SettingsResults } from './settings-results.svelte.ts';

const result = (id: string, cost = 1) => testResult({ id, players: ['a', 'b'], failed: false, cost });

describe('SettingsResults', () => {
  it('keeps the previous settings\' results on screen until the new settings\' first arrive', () => {
    const shown = new SettingsResults(() => 2);
    shown.beginRun('k1');
    shown.entry('k1')[0] = result('c1');
    expect(shown.apply('k1', 'k1', [{ index: 0, result: result('c1') }])).toBe(true);
    expect(shown.finished().map((r) => r.id)).toEqual(['c1']);
    // New settings without results: the old ones stay, marked.
    shown.show('k2');
    expect(shown.previousShown).toBe(true);
    expect(shown.finishedOf('k2')).toEqual([]);
    shown.beginRun('k2');
    expect(shown.shown.map((r) => r?.id)).toEqual(['c1', undefined]);
    // A result of the settings no longer current is not shown.
    expect(shown.apply('k1', 'k2', [{ index: 1, result: result('c2') }])).toBe(false);
    shown.entry('k2')[1] = result('c2');
    expect(shown.apply('k2', 'k2', [{ index: 1, result: result('c2') }])).toBe(true);
    expect(shown.previousShown).toBe(false);
    expect(shown.shown.map((r) => r?.id)).toEqual([undefined, 'c2']);
    // Back to the first settings: their results at once.
    shown.show('k1');
    expect(shown.shown.map((r) => r?.id)).toEqual(['c1', undefined]);
  });

  it('restores saved results by item id, and forgets everything on clear', () => {
    const shown = new SettingsResults(() => 3);
    shown.restore('k', ['c1', 'c2', 'g1'], [result('g1'), result('c1')]);
    expect(shown.shown.map((r) => r?.id)).toEqual(['c1', undefined, 'g1']);
    shown.clear();
    expect(shown.shown).toEqual([]);
    expect(shown.entry('k')).toEqual([undefined, undefined, undefined]);
  });
});

describe('ResultBatches', () => {
  afterEach(() => vi.useRealTimers());

  it('delivers what arrived at most every interval, with the key it was analysed under, and at once on flush', () => {
    vi.useFakeTimers();
    const delivered: [string, number[]][] = [];
    const batches = new ResultBatches((key, arrived: Arrived[]) => delivered.push([key, arrived.map((a) => a.index)]), 200);
    batches.push('k', { index: 0, result: result('c1') });
    batches.push('k', { index: 1, result: result('c2') });
    expect(delivered).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(delivered).toEqual([['k', [0, 1]]]);
    batches.push('k', { index: 2, result: result('c3') });
    batches.flush();
    batches.flush();
    expect(delivered).toEqual([['k', [0, 1]], ['k', [2]]]);
    vi.advanceTimersByTime(1000);
    expect(delivered).toHaveLength(2);
  });
});

describe('RunProgressState', () => {
  it('counts what was known, what this run finished and its cost, and ends done or cancelled', () => {
    let now = 1000;
    const state = new RunProgressState(() => now);
    state.start('running', [result('c1', 3), undefined, undefined], 3);
    expect(state.progress).toEqual({ status: 'running', done: 1, total: 3, cost: 3, startedAt: 1000, doneThisRun: 0, elapsedMs: 0 });
    expect(state.running).toBe(true);
    now = 1500;
    expect(state.advance([{ result: result('c2', 2) }])).toBe(true);
    expect(state.advance([{ result: result('c3', 1) }])).toBe(false);
    expect(state.progress).toMatchObject({ done: 3, doneThisRun: 2, cost: 6, elapsedMs: 500 });
    now = 2000;
    state.end('done');
    expect(state.progress).toMatchObject({ status: 'done', elapsedMs: 1000 });
    state.cancel();
    expect(state.progress?.status).toBe('cancelled');
    state.clear();
    expect(state.progress).toBeNull();
    expect(state.advance([{ result: result('c4') }])).toBe(false);
  });
});

describe('EarlyStop', () => {
  it('counts the batch up to the stop under the settings it stopped with only', () => {
    const early = new EarlyStop();
    const results = [testResult({ id: 'c1', players: ['a', 'b'], shapley: { a: 1, b: 0 } }), testResult({ id: 'c2', players: ['a', 'b'], shapley: { a: 0, b: 1 } })];
    expect(early.batch('k', results, {}, 0.5, 'normal')?.failures).toBe(2);
    early.stoppedAt('k', 1);
    expect(early.at('k')).toBe(1);
    expect(early.batch('k', results, {}, 0.5, 'normal')).toMatchObject({ failures: 1, stoppedEarly: true });
    expect(early.batch('other', results, {}, 0.5, 'normal')?.failures).toBe(2);
    early.resume('k');
    expect(early.at('k')).toBeUndefined();
    expect(early.batch('k', [undefined], {}, 0.5, 'normal')).toBeNull();
  });
});
