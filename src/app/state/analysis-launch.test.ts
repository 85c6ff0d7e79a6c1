/**
 * The AnalysisLaunch alone, over the fake pool (src/app/testing/fake-pool.ts): one run at a time,
 * its cancellation, late results dropped, and the analyses made beside the open study.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import type { CaseResult } from '../../engine/types.ts';
import type { PoolJob } from '../../pool/page/analysis-pool.ts';
import { EndpointWait } from '../model/endpoint-wait.svelte.ts';
import { FakePool, fakeResult, fakeSummary } from '../testing/fake-pool.ts';
import { testModelHost } from '../testing/model-host.ts';
import { AnalysisLaunch, type Launch, type RunnerPool } from './analysis-launch.svelte.ts';

const SOURCE = 'export default { name: "refund", ... }\n// steps: plan, act';

function setup(pool: RunnerPool = new FakePool(), workers = 2) {
  const model = testModelHost();
  const created: number[] = [];
  const launch = new AnalysisLaunch(workers, {
    model,
    endpointWait: new EndpointWait(() => {}, model),
    createPool: (n) => {
      created.push(n);
      return pool;
    },
  });
  return { launch, created };
}

/** A launch of `ids` under the default settings, collecting what reaches the page. */
function launchOf(ids: string[], received: [number, string][]): Launch {
  return {
    study: { source: SOURCE, fileName: 'refund.js', cases: ids.map((id) => ({ id, inputs: {} })) },
    carried: [],
    settings: { ...DEFAULT_SETTINGS },
    batchBound: 'normal',
    batchStop: false,
    batchStopRule: 'top',
    summary: fakeSummary(SOURCE),
    requestBound: null,
    known: ids.map(() => undefined),
    itemCount: ids.length,
    caseTimeoutS: 7,
    onResult: (index, result) => received.push([index, result.id]),
  };
}

describe('AnalysisLaunch', () => {
  it('runs a study through its pool, started once and given the case time limit, each result passed on', async () => {
    const pool = new FakePool();
    const { launch, created } = setup(pool, 3);
    const received: [number, string][] = [];
    const outcome = await launch.run(launchOf(['q1', 'q2'], received));
    expect(outcome).toMatchObject({ status: 'done' });
    expect(received).toEqual([[0, 'q1'], [1, 'q2']]);
    expect(launch.running).toBe(false);
    expect(pool.caseTimeoutMs).toBe(7000);
    await launch.run(launchOf(['q3'], []));
    expect(created).toEqual([3]);
  });

  it('starts its pool at once and has it warm its workers up only when the page is idle', () => {
    let warmUps = 0;
    const pool: RunnerPool = Object.assign(new FakePool(), { warmUp: () => void (warmUps += 1) });
    const { launch, created } = setup(pool, 2);
    const idle: (() => void)[] = [];
    launch.startWarm((run) => idle.push(run));
    expect(created).toEqual([2]);
    expect(warmUps).toBe(0);
    for (const run of idle) run();
    expect(warmUps).toBe(1);
  });

  it('stops on cancel: the run answers null, cancelling again finds nothing running', async () => {
    const pool = new FakePool();
    const { launch } = setup(pool);
    const received: [number, string][] = [];
    const waiting = pool.whenWaiting();
    const run = launch.run(launchOf(['q1', 'slow2', 'q3'], received));
    await waiting;
    expect(launch.running).toBe(true);
    expect(launch.cancel()).toBe(true);
    expect(await run).toBeNull();
    expect(received.map(([, id]) => id)).not.toContain('q3');
    expect(launch.cancel()).toBe(false);
  });

  it('drops the results a stopped run still delivers', async () => {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    // A pool whose run ignores the stop and delivers its result late.
    const stubborn: RunnerPool = {
      caseTimeoutMs: 0,
      load: async () => ({ ok: true, summary: fakeSummary(SOURCE) }),
      run: async (job: PoolJob) => {
        await finished;
        job.onResult(0, fakeResult(job.items[0], job));
        return 'done';
      },
    };
    const { launch } = setup(stubborn);
    const received: [number, string][] = [];
    const run = launch.run(launchOf(['q1'], received));
    await Promise.resolve();
    launch.cancel();
    finish();
    expect(await run).toBeNull();
    expect(received).toEqual([]);
  });

  it('analyses a definition aside: its results, or why it cannot be used', async () => {
    const { launch } = setup();
    const under = { carried: [], settings: { ...DEFAULT_SETTINGS }, batchBound: 'normal' as const, caseTimeoutS: 5 };
    const results = (await launch.analyzeAside({ source: SOURCE, fileName: 'v2.js', cases: [{ id: 'a', inputs: {} }] }, under)) as CaseResult[];
    expect(results.map((r) => r.id)).toEqual(['a']);
    expect(await launch.analyzeAside({ source: 'syntax error', fileName: 'v2.js', cases: [{ id: 'a', inputs: {} }] }, under)).toEqual({ problem: 'Unexpected token (1:7)' });
  });

  it('says so when its pool cannot build a regression game', async () => {
    const { launch } = setup();
    expect(await launch.regressionGame({ source: 'a', fileName: 'a.js' }, { source: 'b', fileName: 'b.js' }, 5)).toEqual({ ok: false, message: 'this analysis pool cannot build a regression game' });
  });
});
