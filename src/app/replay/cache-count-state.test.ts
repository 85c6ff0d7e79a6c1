/**
 * CacheCount, the setup panel's "cache answers N of M requests": after its pause, the replay is
 * analysed in-process (the sandbox's own round-by-round analysis, as a worker runs it) through the
 * counting resolver, with vitest's fake timers for the pause.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestKey, type ChatRequest, type ModelAnswer, type ModelResponse } from '../../engine/model-call.ts';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { buildReplay } from '../../replay/index.ts';
import { analyzeWithModel } from '../../replay/testing/model-loop.ts';
import { scriptedModel, WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { analyzeSourceCaseRound } from '../../sandbox/analyze-source.ts';
import type { PoolJob } from '../../pool/page/analysis-pool.ts';
import { settle } from '../testing/settle.ts';
import { CacheCount, type CountPool } from './cache-count.svelte.ts';

const definition = buildReplay([readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0]], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
const settings = { ...DEFAULT_SETTINGS, method: 'exact' as const, models: { default: 'scripted' } };
/** The requests the replay really sends (computed once the fake timers are in: the sandbox's lockdown freezes Date, after which they cannot be installed). */
let sent: ChatRequest[] = [];

/** Runs each case round by round in this thread, asking the job's resolver for every model request. */
class InProcessPool implements CountPool {
  jobs: PoolJob[] = [];
  disposed = 0;
  failWith: string | null = null;

  async run(job: PoolJob, signal: AbortSignal): Promise<'done' | 'cancelled'> {
    this.jobs.push(job);
    if (this.failWith) throw new Error(this.failWith);
    for (const item of job.items) {
      if (item.kind !== 'case') continue;
      const answers = new Map<string, ModelAnswer>();
      for (;;) {
        if (signal.aborted) return 'cancelled';
        const round = analyzeSourceCaseRound(job.source!, item.caseDef, job.settings, answers, {}, job.fileName);
        if (round.kind === 'result') {
          job.onResult(item.index, round.result);
          break;
        }
        for (const [key, answer] of await job.model!.resolve(round.requests.map((r) => ({ ...r, caseId: item.caseDef.id })))) answers.set(key, answer);
      }
    }
    return 'done';
  }

  dispose(): void {
    this.disposed++;
  }
}

function store(responses: Map<string, ModelResponse> = new Map()) {
  return { getMany: async (keys: readonly string[]) => new Map(keys.filter((k) => responses.has(k)).map((k) => [k, { key: k, request: sent[0], response: responses.get(k)! }])) };
}

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  sent = analyzeWithModel(definition.source, definition.cases[0], settings, scriptedModel).sent;
});
afterAll(() => vi.useRealTimers());

const settled = (count: CacheCount) => settle(() => count.state.status !== 'counting', 'the count done');

describe('CacheCount', () => {
  it('counts after a pause, every request a stand-in when nothing is stored', async () => {
    const pool = new InProcessPool();
    const count = new CacheCount(store(), () => pool);
    expect(count.state).toEqual({ status: 'idle' });
    count.schedule(definition, settings);
    expect(count.state).toEqual({ status: 'counting' });
    await vi.advanceTimersByTimeAsync(399);
    expect(pool.jobs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await settled(count);
    // 11: the upper bound counted by hand in cache-count.test.ts.
    expect(count.state).toEqual({ status: 'done', answered: 0, total: 11 });
  });

  it('counts every request as answered when the store holds them all', async () => {
    const count = new CacheCount(store(new Map(sent.map((r) => [requestKey(r), scriptedModel(r)]))), () => new InProcessPool());
    count.schedule(definition, settings);
    await vi.advanceTimersByTimeAsync(400);
    await settled(count);
    expect(count.state).toEqual({ status: 'done', answered: sent.length, total: sent.length });
  });

  it('counts only the last of quick changes, in one pool', async () => {
    const pool = new InProcessPool();
    let pools = 0;
    const count = new CacheCount(store(), () => {
      pools++;
      return pool;
    });
    count.schedule(definition, { ...settings, seed: 3 });
    await vi.advanceTimersByTimeAsync(200);
    count.schedule(definition, settings);
    await vi.advanceTimersByTimeAsync(400);
    await settled(count);
    expect(pool.jobs.map((j) => j.settings.seed)).toEqual([settings.seed]);
    count.schedule(definition, settings);
    await vi.advanceTimersByTimeAsync(400);
    await settled(count);
    expect([pools, pool.jobs.length]).toEqual([1, 2]);
  });

  it('goes idle without a definition, and stops counting (its worker ended) when disposed', async () => {
    const pool = new InProcessPool();
    const count = new CacheCount(store(), () => pool);
    count.schedule(definition, settings);
    count.schedule(null, settings);
    expect(count.state).toEqual({ status: 'idle' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.jobs).toHaveLength(0);
    count.schedule(definition, settings);
    await vi.advanceTimersByTimeAsync(400);
    await settled(count);
    count.schedule(definition, settings);
    count.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect([pool.jobs.length, pool.disposed]).toEqual([1, 1]);
  });

  it('shows why it could not count: the pool failing, or every case failing before any request', async () => {
    const pool = new InProcessPool();
    pool.failWith = 'the worker could not start';
    const count = new CacheCount(store(), () => pool);
    count.schedule(definition, settings);
    await vi.advanceTimersByTimeAsync(400);
    await settled(count);
    expect(count.state).toEqual({ status: 'error', message: 'the worker could not start' });
    const broken = new CacheCount(store(), () => new InProcessPool());
    broken.schedule({ ...definition, source: 'export default { name: "x", steps: [] }' }, settings);
    await vi.advanceTimersByTimeAsync(400);
    await settled(broken);
    expect(broken.state.status).toBe('error');
    // A model failure is shown in the page's words: its Settings, not the command's flags.
    const unmapped = new CacheCount(store(), () => new InProcessPool());
    unmapped.schedule(definition, { ...settings, models: {} });
    await vi.advanceTimersByTimeAsync(400);
    await settled(unmapped);
    expect(unmapped.state).toMatchObject({ status: 'error', message: expect.stringMatching(/set the default model \(Settings > Model\)$/) });
  });
});
