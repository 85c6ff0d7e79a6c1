import { describe, expect, it } from 'vitest';
import { aggregateBatch, BatchStopper, studyBatchOptions } from '../engine/batch.ts';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import type { DefinitionSummary } from '../engine/definition-summary.ts';
import type { TableGame } from '../engine/table-game.ts';
import { testResult } from '../engine/testing/results.ts';
import type { CaseDef, CaseResult } from '../engine/types.ts';
import { batchStopChunk, runStudy, studyBatch } from './run-study.ts';
import { knownStop } from './known-stop.ts';
import type { PoolJob, StudyPool, WorkItem } from './study-pool.ts';

const STEPS = ['plan', 'act', 'check'];
const summary = (cases: CaseDef[] = []): DefinitionSummary => ({ name: 'p', steps: STEPS.map((name) => ({ name, inputs: [], cost: 1, fixes: ['oracle'] })), cases, threshold: 1, range: [0, 1] });
const cases = (n: number): CaseDef[] => Array.from({ length: n }, (_, k) => ({ id: `c${k}`, inputs: { k } }));

/** A failing case whose blame falls mostly on `plan`, varying by case (so the stop is not immediate). */
function resultOf(item: WorkItem, players: readonly string[]): CaseResult {
  const id = item.kind === 'case' ? item.caseDef.id : item.game.id;
  const k = item.index;
  const plan = 0.5 + 0.4 * Math.sin(k * 1.7);
  return testResult({ id, players: [...players], shapley: { [players[0]]: plan, [players[1]]: (1 - plan) / 2, [players[2]]: (1 - plan) / 2 } });
}

/** A pool that answers each job's items in reverse order, as workers finishing out of order would. */
class FakeStudyPool implements StudyPool {
  readonly jobs: PoolJob[] = [];
  described = 0;
  constructor(
    readonly size: number,
    private readonly description: { ok: true; summary: DefinitionSummary } | { ok: false; problem: { message: string } } = { ok: true, summary: summary() },
  ) {}
  async describe() {
    this.described++;
    return this.description;
  }
  async run(job: PoolJob, signal: AbortSignal): Promise<'done' | 'cancelled'> {
    this.jobs.push(job);
    for (const item of [...job.items].reverse()) {
      await Promise.resolve();
      if (signal.aborted) return 'cancelled';
      job.onResult(item.index, resultOf(item, item.kind === 'case' ? job.players : item.game.players));
    }
    return 'done';
  }
}

describe('runStudy', () => {
  it('describes the definition, runs its own cases when the study gives none, and aggregates them', async () => {
    const pool = new FakeStudyPool(2, { ok: true, summary: summary(cases(5)) });
    const described: string[] = [];
    const outcome = await runStudy({ pool, study: { source: 'src', fileName: 'p.js' }, settings: DEFAULT_SETTINGS, batchBound: 'normal', onDescribed: (s) => described.push(`${s.name}:${pool.jobs.length}`) });
    expect(described).toEqual(['p:0']);
    if (outcome.status !== 'done') throw new Error(outcome.status);
    expect(outcome.results.map((r) => r?.id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(pool.jobs[0].players).toEqual(STEPS);
    expect(outcome.batch).toEqual(aggregateBatch(outcome.results as CaseResult[], studyBatchOptions(summary(), DEFAULT_SETTINGS.delta, 'normal')));
    expect(outcome.stoppedEarly).toBe(false);
  });

  it('answers a definition that does not describe, or a study with nothing to analyse, without running anything', async () => {
    const bad = new FakeStudyPool(2, { ok: false, problem: { message: 'p.js: step "x" has no run' } });
    expect(await runStudy({ pool: bad, study: { source: 'src', fileName: 'p.js', cases: cases(3) }, settings: DEFAULT_SETTINGS, batchBound: 'normal' })).toEqual({ status: 'bad-definition', problem: { message: 'p.js: step "x" has no run' } });
    const empty = new FakeStudyPool(2);
    expect((await runStudy({ pool: empty, study: { source: 'src', fileName: 'p.js' }, settings: DEFAULT_SETTINGS, batchBound: 'normal' })).status).toBe('no-cases');
    expect([...bad.jobs, ...empty.jobs]).toEqual([]);
  });

  it('runs only what is not known, games after cases with their own players, and the picked part', async () => {
    const pool = new FakeStudyPool(2);
    const game: TableGame = { id: 'g', players: ['x', 'y', 'z'], values: new Float64Array(8) };
    const known = [undefined, testResult({ id: 'c1', players: STEPS, failed: false })];
    const seen: number[] = [];
    const outcome = await runStudy({ pool, study: { source: 'src', fileName: 'p.js', cases: cases(3), games: [game] }, settings: DEFAULT_SETTINGS, batchBound: 'normal', summary: summary(), known, onResult: (index) => seen.push(index) });
    expect(pool.described).toBe(0);
    expect(pool.jobs.map((job) => job.items.map((item) => item.index))).toEqual([[0, 2, 3]]);
    expect(seen.sort()).toEqual([0, 2, 3]);
    if (outcome.status !== 'done') throw new Error(outcome.status);
    expect(outcome.results.map((r) => r?.id)).toEqual(['c0', 'c1', 'c2', 'g']);
    expect(outcome.results[3]?.players).toEqual(['x', 'y', 'z']);
    const sharded = await runStudy({ pool: new FakeStudyPool(1), study: { source: 'src', fileName: 'p.js', cases: cases(5) }, settings: DEFAULT_SETTINGS, batchBound: 'normal', pick: (items) => items.filter((_, k) => k % 2 === 0) });
    if (sharded.status !== 'done') throw new Error(sharded.status);
    expect(sharded.results.map((r) => r?.id)).toEqual(['c0', 'c2', 'c4']);
    expect(sharded.cases).toHaveLength(5);
  });

  it('stops where the batch stop fed every result in case order stops, whatever order they finish in', async () => {
    const all = cases(400);
    const players = STEPS;
    // The reference: every case's result fed in order to the stopper directly.
    const stopper = new BatchStopper(studyBatchOptions(summary(), DEFAULT_SETTINGS.delta, 'anytime'));
    const expected = all.findIndex((caseDef, index) => stopper.push(resultOf({ kind: 'case', index, caseDef }, players))) + 1;
    expect(expected).toBeGreaterThan(batchStopChunk(2));
    expect(expected).toBeLessThan(all.length);
    const pool = new FakeStudyPool(2);
    const seen: number[] = [];
    const outcome = await runStudy({ pool, study: { source: 'src', fileName: 'p.js', cases: all }, settings: DEFAULT_SETTINGS, batchBound: 'anytime', batchStop: true, summary: summary(), onResult: (index) => seen.push(index) });
    if (outcome.status !== 'done') throw new Error(outcome.status);
    expect(outcome.stoppedEarly).toBe(true);
    expect(outcome.stoppedAt).toBe(expected);
    expect(outcome.results).toHaveLength(expected);
    // Results reach the host in case order, and none after the stop.
    expect(seen).toEqual(Array.from({ length: expected }, (_, k) => k));
    // A few batches per worker between two checks: no more than one chunk past the stop was run.
    expect(pool.jobs.every((job) => job.items.length === batchStopChunk(2))).toBe(true);
    expect(pool.jobs.length).toBe(Math.ceil(expected / batchStopChunk(2)));
    expect(outcome.batch).toEqual(studyBatch(outcome.results as CaseResult[], summary(), DEFAULT_SETTINGS.delta, 'anytime', true));
    expect(outcome.batch.stoppedEarly).toBe(true);
  });

  it('feeds known results first: a known prefix that decides the stop runs nothing', async () => {
    const all = cases(400);
    const known: (CaseResult | undefined)[] = all.map((caseDef, index) => resultOf({ kind: 'case', index, caseDef }, STEPS));
    known[300] = undefined;
    const pool = new FakeStudyPool(2);
    const outcome = await runStudy({ pool, study: { source: 'src', fileName: 'p.js', cases: all }, settings: DEFAULT_SETTINGS, batchBound: 'anytime', batchStop: true, summary: summary(), known });
    if (outcome.status !== 'done') throw new Error(outcome.status);
    expect(outcome.stoppedEarly).toBe(true);
    expect(pool.jobs).toEqual([]);
  });

  it('finds, in the results a stopped run kept, the stop that run made; a gap before it (or no stop) gives none', async () => {
    const all = cases(400);
    const outcome = await runStudy({ pool: new FakeStudyPool(2), study: { source: 'src', fileName: 'p.js', cases: all }, settings: DEFAULT_SETTINGS, batchBound: 'anytime', batchStop: true, summary: summary() });
    if (outcome.status !== 'done' || outcome.stoppedAt === undefined) throw new Error('expected a stop');
    const kept = [...outcome.results, ...new Array<CaseResult | undefined>(all.length - outcome.results.length).fill(undefined)];
    expect(knownStop(kept, summary(), DEFAULT_SETTINGS.delta, 'anytime')).toBe(outcome.stoppedAt);
    const gap = [...kept];
    gap[outcome.stoppedAt - 2] = undefined;
    expect(knownStop(gap, summary(), DEFAULT_SETTINGS.delta, 'anytime')).toBeUndefined();
    // Too few results for the normal bound's first check: no stop.
    expect(knownStop(kept.slice(0, 5), summary(), DEFAULT_SETTINGS.delta, 'normal')).toBeUndefined();
  });

  it('reports a stop decided under the Bernstein bound at the anytime confidence', () => {
    const results = cases(40).map((caseDef, index) => resultOf({ kind: 'case', index, caseDef }, STEPS));
    expect(studyBatch(results, summary(), 0.05, 'bernstein', true)).toEqual({ ...aggregateBatch(results, studyBatchOptions(summary(), 0.05, 'anytime')), stoppedEarly: true });
    expect(studyBatch(results, summary(), 0.05, 'bernstein', false)).toEqual(aggregateBatch(results, studyBatchOptions(summary(), 0.05, 'bernstein')));
  });

  it('ends cancelled when the signal aborts, keeping what finished', async () => {
    const abort = new AbortController();
    const pool = new FakeStudyPool(1);
    const outcome = await runStudy({ pool, study: { source: 'src', fileName: 'p.js', cases: cases(6) }, settings: DEFAULT_SETTINGS, batchBound: 'normal', summary: summary(), signal: abort.signal, onResult: () => abort.abort() });
    if (outcome.status !== 'cancelled') throw new Error(outcome.status);
    expect(outcome.results.filter((r) => r !== undefined).map((r) => r!.id)).toEqual(['c5']);
  });
});
