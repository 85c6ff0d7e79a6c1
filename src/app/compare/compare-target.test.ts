/**
 * CompareTarget: the stored session the navigation's compareId names, loaded from a real session
 * store (fake-indexeddb), and its comparison with the open study's finished results.
 */
import { testRunner } from '../testing/model-host.ts';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testResult } from '../../engine/testing/results.ts';
import { SessionStore } from '../../session/store.ts';
import { result, session as sampleSession } from '../../session/testing/sample-session.ts';
import { Navigation } from '../navigation/navigation.svelte.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';
import { FakePool } from '../testing/fake-pool.ts';
import { settle } from '../testing/settle.ts';
import { CompareTarget } from './compare-target.svelte.ts';

let store: SessionStore;
let available: SessionStore | null;
let nav: Navigation;
let runner: AnalysisRunner;
let target: CompareTarget;
const current = { id: 'open-session' };

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await SessionStore.open({ broadcast: false });
  available = store;
  nav = new Navigation();
  runner = testRunner(1, { autosave: { schedule() {} }, navigation: nav, createPool: () => new FakePool() });
  target = new CompareTarget(() => available, nav, runner, () => current.id);
  const players = ['planner', 'retriever'];
  // The open study: the same three cases as the sample session, q1 and q3 failed, blamed on the planner.
  await runner.openStudy(
    { fileName: 'refund.trace.json', name: 'refund', pipeline: { name: 'refund', source: 'export default { name: "refund" }' }, cases: ['q1', 'q2', 'q3'].map((id) => ({ id, inputs: {} })), games: [] },
    { results: [testResult({ id: 'q1', players, shapley: { planner: 1, retriever: 0 } }), testResult({ id: 'q2', players, failed: false }), testResult({ id: 'q3', players, shapley: { planner: 1, retriever: 0 } })], autoRun: false },
  );
});
afterEach(() => store.close());

const loaded = () => settle(() => !target.loading, 'the compared session loaded');

describe('CompareTarget', () => {
  it('loads the session the navigation names and compares the open study with it', async () => {
    const stored = await store.importSession(sampleSession({ results: [result('q1'), result('q2', false), result('q3')] }));
    expect(target.comparison).toBeNull();
    nav.compareId = stored.id;
    target.follow();
    expect(target.loading).toBe(true);
    await loaded();
    expect(target.session?.id).toBe(stored.id);
    expect(target.problem).toBeNull();
    const comparison = target.comparison!;
    expect(comparison.shared).toBe(2);
    expect(comparison.before).toEqual({ failures: 2, analyzed: 2 });
    expect(comparison.after).toEqual({ failures: 2, analyzed: 2 });
    // The sample blames the retriever (0.75); the open study the planner.
    // Mean Shapley over the two failures: planner 0.25 -> 1, retriever 0.75 -> 0.
    const change = Object.fromEntries(comparison.steps.map((s) => [s.step, s.shapleyChange]));
    expect(change.planner).toBeCloseTo(0.75, 12);
    expect(change.retriever).toBeCloseTo(-0.75, 12);
    // A later change of the navigation drops the comparison at once.
    nav.compareId = 'another';
    expect(target.comparison).toBeNull();
  });

  it('says so when the session is no longer stored, or cannot be read', async () => {
    nav.compareId = 'gone';
    target.follow();
    await loaded();
    expect(target.session).toBeNull();
    expect(target.problem).toMatch(/^That session is no longer stored in this browser/);
    store.close();
    nav.compareId = 'other';
    target.follow();
    await settle(() => target.problem !== null && target.problem.startsWith('Could not read'), 'the read error shown');
    expect(target.problem).toMatch(/^Could not read that session: /);
  });

  it('compares nothing with no target, the open session itself, or no store', async () => {
    const stored = await store.importSession(sampleSession());
    nav.compareId = stored.id;
    target.follow();
    await loaded();
    expect(target.session).not.toBeNull();
    nav.compareId = null;
    target.follow();
    expect([target.session, target.problem]).toEqual([null, null]);
    current.id = stored.id;
    nav.compareId = stored.id;
    target.follow();
    expect([target.session, target.loading]).toEqual([null, false]);
    current.id = 'open-session';
    available = null;
    target.follow();
    expect([target.session, target.loading]).toEqual([null, false]);
  });

  it('keeps what the navigation names now when an earlier load answers late', async () => {
    const first = await store.importSession(sampleSession({ id: 'first' }));
    const second = await store.importSession(sampleSession({ id: 'second', name: 'second look' }));
    nav.compareId = first.id;
    target.follow();
    nav.compareId = second.id;
    target.follow();
    await loaded();
    await settle(() => target.session?.id === second.id, 'the second session loaded');
    expect(target.session?.name).toBe('second look');
    // Loading an already loaded session again does not read it again.
    target.follow();
    expect(target.loading).toBe(false);
  });
});
