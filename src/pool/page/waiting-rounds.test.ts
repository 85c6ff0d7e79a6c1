/**
 * Waiting rounds in the page's pool (docs/replay.md, "Time"): a case whose round asked for one
 * request runs its next round waiting, its worker blocked on shared memory (wait-channel.ts), for
 * each response it lacks, instead of restarting from the start per request. Real threads stand in
 * for the browser's workers (testing/waiting-worker.mjs) and this thread writes the answers in, as
 * the page does on the dev server (the built site's frames do the same: analysis-frame.html).
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import { CountingResolver } from '../testing/counting-resolver.ts';
import { chainSource, question } from '../testing/chain-source.ts';
import { runtapeReplay } from '../../replay/testing/runtape-replay.ts';
import type { PoolJob } from '../study-pool.ts';
import { PageAnalysisPool } from './analysis-pool.ts';
import type { AnalysisWorker } from './protocol.ts';
import type { StartTimer } from './race-timeout.ts';
import { createWaitBuffer, writeWaitChunk } from './wait-channel.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'toy-1' } };

const threads: Worker[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.terminate()));
});

/** Starts stand-in workers of `source`; `started` lists them (the test may kill one), each with its thread. */
function threadWorkers(source: string, fileName = 'chain.js') {
  const started: { worker: AnalysisWorker; thread: Worker }[] = [];
  const create = (): AnalysisWorker => {
    const { port1, port2 } = new MessageChannel();
    const buffer = createWaitBuffer()!;
    const thread = new Worker(new URL('./testing/waiting-worker.mjs', import.meta.url), { workerData: { port: port2, buffer, source, fileName }, transferList: [port2] });
    threads.push(thread);
    let lose: (reason: string) => void = () => {};
    const lost = new Promise<string>((resolve) => (lose = resolve));
    let terminated = false;
    thread.on('exit', () => terminated || lose('its thread ended'));
    const worker = Object.assign(port1 as unknown as AnalysisWorker, {
      lost,
      terminate: () => {
        terminated = true;
        void thread.terminate();
        port1.close();
      },
      sendWaitChunk: (chunk: Parameters<NonNullable<AnalysisWorker['sendWaitChunk']>>[0]) => writeWaitChunk(buffer, chunk),
    });
    started.push({ worker, thread });
    return worker;
  };
  return { create, started };
}

/** A model host that also counts the pool's rounds (ModelResolver.countRound). */
class RoundCountingResolver extends CountingResolver {
  readonly rounds = { restarts: 0, waits: 0 };
  countRound(kind: 'restart' | 'wait'): void {
    if (kind === 'restart') this.rounds.restarts++;
    else this.rounds.waits++;
  }
}

async function runAll(pool: PageAnalysisPool, source: string, cases: CaseDef[], model: RoundCountingResolver, extra: Partial<PoolJob> = {}, signal = new AbortController().signal) {
  const results: CaseResult[] = [];
  const items = cases.map((caseDef, index) => ({ kind: 'case' as const, index, caseDef }));
  const outcome = await pool.run({ items, source, settings, players: ['probe'], onResult: (i, r) => (results[i] = r), model, ...extra }, signal);
  return { outcome, results };
}

function pools(source: string, size = 1, startTimer?: StartTimer) {
  const threaded = threadWorkers(source);
  const waiting = new PageAnalysisPool(size, threaded.create, 60_000, startTimer);
  waiting.waitOnChains = true;
  const restarting = new PageAnalysisPool(size, threadWorkers(source).create, 60_000);
  restarting.waitOnChains = false;
  return { waiting, restarting, started: threaded.started };
}

describe('waiting rounds in the page pool', () => {
  it('a chain of 12 requests takes one restart and 11 waits instead of 12 restarts: the same results, requests sent and usage', async () => {
    const source = chainSource(12);
    const cases = [question('a', 'q'), question('b', 'r')];
    const { waiting, restarting } = pools(source);
    const waitingModel = new RoundCountingResolver();
    const restartingModel = new RoundCountingResolver();
    const waited = await runAll(waiting, source, cases, waitingModel);
    const restarted = await runAll(restarting, source, cases, restartingModel);
    expect(waited.results[0].error).toBeUndefined();
    expect(waited.results).toEqual(restarted.results);
    expect(waitingModel.sent).toEqual(restartingModel.sent);
    expect(new Set(waitingModel.sent).size).toBe(24);
    expect(waitingModel.rounds).toEqual({ restarts: 2, waits: 22 });
    expect(restartingModel.rounds).toEqual({ restarts: 24, waits: 0 });
    waiting.dispose();
    restarting.dispose();
  });

  it('a runtape replay of 40 turns (a chain of 20 requests): 1 restart instead of 20, the same result and requests', async () => {
    const def = runtapeReplay(40);
    const replaySettings = { ...settings, models: { default: 'm' } };
    const run = async (waitOnChains: boolean) => {
      const pool = new PageAnalysisPool(1, threadWorkers(def.source, 'replay.js').create, 60_000);
      pool.waitOnChains = waitOnChains;
      const model = new RoundCountingResolver();
      const results: CaseResult[] = [];
      const items = def.cases.map((caseDef, index) => ({ kind: 'case' as const, index, caseDef }));
      await pool.run({ items, source: def.source, fileName: 'replay.js', settings: replaySettings, players: def.steps, onResult: (i, r) => (results[i] = r), model }, new AbortController().signal);
      pool.dispose();
      return { results, model };
    };
    const waited = await run(true);
    const restarted = await run(false);
    expect(waited.results[0].error).toBeUndefined();
    expect(waited.results).toEqual(restarted.results);
    expect(waited.model.sent).toEqual(restarted.model.sent);
    expect(waited.model.sent).toHaveLength(20);
    expect(restarted.model.rounds).toEqual({ restarts: 20, waits: 0 });
    expect(waited.model.rounds).toEqual({ restarts: 1, waits: 19 });
  });

  it("the case's clock stops while its worker waits for a response", async () => {
    let running = 0;
    const clock: StartTimer = () => {
      running++;
      return () => running--;
    };
    const seenByFetches: number[] = [];
    const model = new RoundCountingResolver(0, async () => void seenByFetches.push(running));
    const source = chainSource(6);
    const { waiting } = pools(source, 1, clock);
    const { results } = await runAll(waiting, source, [question('a', 'q')], model);
    expect(results[0].error).toBeUndefined();
    expect(model.rounds.waits).toBe(5);
    // No case timer runs while a response is fetched, restarted round or waited one.
    expect(seenByFetches).toEqual([0, 0, 0, 0, 0, 0]);
    expect(running).toBe(0);
    waiting.dispose();
  });

  it('a host that fails while a round waits gives the error a restarting round gives', async () => {
    const source = chainSource(6);
    const failing = () => new RoundCountingResolver(0, async (sent) => {
      if (sent === 3) throw new Error('HTTP 500 from http://127.0.0.1:9/v1/chat/completions: overloaded');
    });
    const { waiting, restarting } = pools(source);
    const waited = await runAll(waiting, source, [question('a', 'q')], failing());
    const restarted = await runAll(restarting, source, [question('a', 'q')], failing());
    expect(waited.results[0].error).toMatch(/model requests of step "probe" failed: HTTP 500/);
    expect(waited.results).toEqual(restarted.results);
    waiting.dispose();
    restarting.dispose();
  });

  it('a worker lost while it waits: the case runs again (alone) from the responses known, each request sent once', async () => {
    const source = chainSource(8);
    const { waiting, restarting, started } = pools(source);
    // The fifth fetch (a waited response) kills the waiting worker's thread first.
    const model = new RoundCountingResolver(0, async (sent) => {
      if (sent === 4) await started[0].thread.terminate();
    });
    const waited = await runAll(waiting, source, [question('a', 'q')], model);
    const restarted = await runAll(restarting, source, [question('a', 'q')], new RoundCountingResolver());
    expect(started.length).toBeGreaterThan(1);
    expect(waited.results[0].error).toBeUndefined();
    expect(waited.results).toEqual(restarted.results);
    expect(new Set(model.sent).size).toBe(model.sent.length);
    expect(model.sent).toHaveLength(8);
    waiting.dispose();
    restarting.dispose();
  });

  it('cancelled while a round waits for a response: the run ends and the waiting worker is replaced', async () => {
    const source = chainSource(8);
    const { waiting, started } = pools(source);
    const controller = new AbortController();
    const model = new RoundCountingResolver(0, async (sent) => {
      if (sent < 3) return;
      controller.abort();
      await new Promise(() => {});
    });
    const { outcome } = await runAll(waiting, source, [question('a', 'q')], model, {}, controller.signal);
    expect(outcome).toBe('cancelled');
    expect(model.rounds.waits).toBe(2);
    expect(started.length).toBe(2);
    waiting.dispose();
  });
});
