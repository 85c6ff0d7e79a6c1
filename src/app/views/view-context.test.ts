/**
 * ViewContext and Navigation: the case list's rows in the navigation's filter and sort, the open
 * case's neighbours, and where the user is (view, case, list state) across a new study.
 */
import { testRunner } from '../testing/model-host.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testResult } from '../../engine/testing/results.ts';
import { Navigation } from '../navigation/navigation.svelte.ts';
import { DEFAULT_SORT } from '../navigation/url-state.ts';
import { FakePool } from '../testing/fake-pool.ts';
import { ViewContext } from './view-context.svelte.ts';

afterEach(() => vi.unstubAllGlobals());

const players = ['plan', 'act'];

/** A study of five cases with restored results: b and d failed (d blamed on act), c passed, e broke, a not analysed. */
async function context() {
  const nav = new Navigation();
  const runner = testRunner(1, { autosave: { schedule() {} }, navigation: nav, createPool: () => new FakePool() });
  const results = [
    testResult({ id: 'b', players, shapley: { plan: 0.8, act: 0.2 } }),
    testResult({ id: 'c', players, failed: false }),
    testResult({ id: 'd', players, shapley: { plan: -0.5, act: 1.5 } }),
    testResult({ id: 'e', players, error: 'the step threw' }),
  ];
  await runner.openStudy(
    { fileName: 't.json', name: 't', pipeline: { name: 't', source: 'export default { name: "t" }' }, cases: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, inputs: {} })), games: [] },
    { results, autoRun: false },
  );
  return { nav, runner, ctx: new ViewContext(runner, nav) };
}

const order = (ctx: ViewContext) => ctx.ordered.map((row) => row.id);

describe('ViewContext', () => {
  it('lists every case with its result, in the study\'s order', async () => {
    const { ctx } = await context();
    expect(ctx.ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ctx.rows.map((r) => [r.id, r.index, r.result?.id])).toEqual([['a', 0, undefined], ['b', 1, 'b'], ['c', 2, 'c'], ['d', 3, 'd'], ['e', 4, 'e']]);
    expect(ctx.errorCount).toBe(1);
    expect(ctx.summary?.name).toBe('t');
    expect(ctx.compare).toBeNull();
  });

  it('orders and filters the rows as the navigation says, and follows its changes', async () => {
    const { ctx, nav } = await context();
    // Broken, failed, not analysed yet, passed; ties in the study's order.
    expect(order(ctx)).toEqual(['e', 'b', 'd', 'a', 'c']);
    nav.sortBy({ by: 'step', step: 'act', dir: 'desc' });
    expect(order(ctx).slice(0, 2)).toEqual(['d', 'b']);
    nav.onlyFailing = true;
    expect(order(ctx).sort()).toEqual(['b', 'd', 'e']);
    nav.filter = ' D ';
    expect(order(ctx)).toEqual(['d']);
  });

  it('finds the open case, and its neighbours in the list\'s order (null at an end)', async () => {
    const { ctx, nav } = await context();
    nav.sortBy({ by: 'id' });
    expect(ctx.selectedIndex).toBe(-1);
    // No case open: the first of the list.
    expect(ctx.neighbour(1)).toBe('a');
    nav.openCase('c');
    expect(ctx.selectedIndex).toBe(2);
    expect([ctx.neighbour(-1), ctx.neighbour(1)]).toEqual(['b', 'd']);
    nav.openCase('e');
    expect(ctx.neighbour(1)).toBeNull();
    nav.onlyFailing = true;
    nav.openCase('b');
    expect([ctx.neighbour(-1), ctx.neighbour(1)]).toEqual([null, 'd']);
  });

  it('follows the runner: no summary while the definition is broken, rows of a new study', async () => {
    const { ctx, runner } = await context();
    await runner.rerunDefinition('syntax error');
    expect(ctx.summary?.name).toBe('t');
    runner.close();
    expect([ctx.ids, ctx.rows, ctx.ordered, ctx.errorCount, ctx.summary]).toEqual([[], [], [], 0, null]);
    await runner.openStudy({ fileName: 'u.json', name: 'u', pipeline: { name: 'u', source: 'syntax error' }, cases: [{ id: 'x', inputs: {} }], games: [] });
    expect(ctx.ids).toEqual(['x']);
    expect(ctx.summary).toBeNull();
  });
});

describe('Navigation', () => {
  it('shows a view, asking for focus only when told', () => {
    const nav = new Navigation();
    nav.show('steps');
    expect([nav.view, nav.focusRequest]).toEqual(['steps', 0]);
    nav.show('definition', true);
    expect([nav.view, nav.focusRequest]).toEqual(['definition', 1]);
  });

  it('opens a case in the case view, and sorts the list', () => {
    const nav = new Navigation();
    nav.openCase('q7');
    expect([nav.view, nav.caseId]).toEqual(['case', 'q7']);
    nav.sortBy({ by: 'step', step: 'plan', dir: 'asc' });
    expect(nav.sort).toEqual({ by: 'step', step: 'plan', dir: 'asc' });
  });

  it('starts a new study from its batch view with a fresh list (focus requests are kept counting)', () => {
    const nav = new Navigation();
    nav.openCase('q7');
    nav.filter = 'q';
    nav.onlyFailing = true;
    nav.sortBy({ by: 'id' });
    nav.compareId = 'other';
    nav.listScroll = 420;
    nav.listShown = 300;
    nav.show('case', true);
    nav.reset();
    expect([nav.view, nav.caseId, nav.filter, nav.onlyFailing, nav.sort, nav.compareId, nav.listScroll, nav.listShown]).toEqual(['batch', null, '', false, DEFAULT_SORT, null, 0, 100]);
    expect(nav.focusRequest).toBe(1);
  });
});
