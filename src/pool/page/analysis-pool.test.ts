/**
 * The pool's scheduling, against in-process "workers": a Comlink endpoint on a MessageChannel whose
 * API can be told to hang (a promise that never settles, as a stuck worker's call would be).
 */
import * as Comlink from 'comlink';
import { testResult } from '../../engine/testing/results.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import { PageAnalysisPool, batchSizeFor, type WorkItem } from './analysis-pool.ts';
import { PAGE_MAX_BATCH, pageBatchSize } from '../contract.ts';
import type { StartTimer } from './race-timeout.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, seed: 0 };

/** What one fake worker's channel has carried, for the clock to see when nothing can happen. */
interface Channel {
  /** Messages posted either way and not yet received. */
  inFlight: number;
  /** Calls the pool made (every Comlink request gets one response) and responses the worker posted. */
  requests: number;
  responses: number;
  /** Calls the worker will never answer. */
  stuck: number;
  /** Terminated: what was in flight is dropped. */
  closed: boolean;
}

/**
 * The pool's time limits in these tests. A real 50 ms limit also expired quick cases whose answers
 * were only late on a loaded machine (then a case that is not stuck was timed out and its worker
 * replaced). This clock expires limits only when nothing else can happen: every message between
 * the pool and its fake workers has arrived, and every call a worker has not answered is one it is
 * stuck in. Then time passes for the stuck calls (every armed timer expires), as it would in a real
 * worker; a quick case can never lose the race. The event loop is watched with setImmediate turns,
 * never with wall-clock time.
 */
class StuckOnlyClock {
  readonly #armed = new Set<() => void>();
  readonly #channels: Channel[] = [];
  #running = true;

  readonly startTimer: StartTimer = (expire) => {
    const entry = () => expire();
    this.#armed.add(entry);
    return () => this.#armed.delete(entry);
  };

  constructor() {
    clocks.push(this);
    void this.#drive();
  }

  /** Counts the messages of a fake worker's channel (port1 the pool's end, port2 the worker's). */
  track(port1: MessagePort, port2: MessagePort): Channel {
    const channel: Channel = { inFlight: 0, requests: 0, responses: 0, stuck: 0, closed: false };
    const post1 = port1.postMessage.bind(port1);
    const post2 = port2.postMessage.bind(port2);
    port1.postMessage = (message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) => {
      channel.inFlight++;
      channel.requests++;
      if (Array.isArray(transfer)) post1(message, transfer);
      else post1(message, transfer);
    };
    port2.postMessage = (message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) => {
      channel.inFlight++;
      // The worker's own messages (a case's outcome, a step started) answer no request.
      if (typeof message === 'object' && message !== null && !('agentblameCaseDone' in message) && !('agentblameWatchdog' in message)) channel.responses++;
      if (Array.isArray(transfer)) post2(message, transfer);
      else post2(message, transfer);
    };
    port1.addEventListener('message', () => channel.inFlight--);
    port2.addEventListener('message', () => channel.inFlight--);
    this.#channels.push(channel);
    return channel;
  }

  stop(): void {
    this.#running = false;
  }

  #quiet(): boolean {
    return this.#channels.every((c) => c.closed || (c.inFlight === 0 && c.requests - c.responses === c.stuck));
  }

  async #drive(): Promise<void> {
    let quietTurns = 0;
    while (this.#running) {
      await new Promise((resolve) => setImmediate(resolve));
      quietTurns = this.#quiet() ? quietTurns + 1 : 0;
      // Two quiet turns: the pool reacts to a message in that message's turn (promises only).
      if (quietTurns >= 2 && this.#armed.size > 0) {
        const due = [...this.#armed];
        this.#armed.clear();
        for (const expire of due) expire();
        quietTurns = 0;
      }
    }
  }
}

/** Every clock started, stopped after each test even when an expectation failed first. */
const clocks: StuckOnlyClock[] = [];
afterEach(() => {
  for (const clock of clocks.splice(0)) clock.stop();
});

interface FakeWorld {
  terminated: number;
  started: number;
  /** Calls the workers are stuck in (the cases "hang*" they reached). */
  stuck?: number;
  /** Counts each worker's messages, when the pool runs on a StuckOnlyClock. */
  clock?: StuckOnlyClock;
  /** Sizes of the batch calls, in order. */
  batches?: number[];
  /** The definitions workers were asked to load, and whether to describe them. */
  loads?: string[];
  /** A describe answers only once this many plain loads have arrived (to see they run at once). */
  describeAfterLoads?: number;
  /** Post a batch's outcomes in one group at its end (CaseDoneGroup). */
  grouped?: boolean;
  /** Calls of one case (not in a batch): cases run again after their batch. */
  singleCalls?: number;
  /** Warm-up requests the workers received. */
  warmUps?: number;
}

/** A fake worker: case "hang*" never returns; others echo their id with a cost of their index. */
function fakeWorkerFactory(world: FakeWorld) {
  return (): Worker => {
    world.started++;
    const { port1, port2 } = new MessageChannel();
    const channel = world.clock?.track(port1, port2);
    const hang = () => {
      world.stuck = (world.stuck ?? 0) + 1;
      if (channel) channel.stuck++;
      return new Promise<CaseResult>(() => {});
    };
    const analyzeCase = (caseDef: CaseDef): Promise<CaseResult> | CaseResult =>
      caseDef.id.startsWith('hang')
        ? hang()
        : testResult({ id: caseDef.id, players: ['a'], method: 'exact', failed: true, vEmpty: 0, vAll: 1, shapley: { a: Number(caseDef.inputs.n) }, cost: Number(caseDef.inputs.n), evaluations: 2, permutations: 0 });
    const api = {
      // A describe of a definition listing cases ("listed ...") answers the text the other workers
      // should load (without the listed cases).
      load: async (source: string, _fileName: string, describe: boolean) => {
        world.loads?.push(`${describe ? 'describe' : 'load'} ${source}`);
        const loadsSeen = () => (world.loads ?? []).filter((l) => l.startsWith('load')).length;
        while (describe && loadsSeen() < (world.describeAfterLoads ?? 0)) await new Promise((r) => setTimeout(r, 1));
        return { ok: true, summary: { name: 'p', steps: [], cases: [], threshold: 1 }, ...(describe && source.startsWith('listed') && { analysisSource: `${source} without its cases` }) };
      },
      analyzeCase: (caseDef: CaseDef) => {
        world.singleCalls = (world.singleCalls ?? 0) + 1;
        return analyzeCase(caseDef);
      },
      // As the real worker: outcomes posted as cases finish, outside Comlink.
      // With `grouped`, all of a batch's outcomes go in one CaseDoneGroup at its end, as the real
      // worker sends quick cases' outcomes (held back; lost if a later case of the batch never returns).
      analyzeCases: async (caseDefs: CaseDef[]) => {
        world.batches?.push(caseDefs.length);
        const held: { agentblameCaseDone: number; outcome: CaseResult }[] = [];
        for (let position = 0; position < caseDefs.length; position++) {
          const done = { agentblameCaseDone: position, outcome: await analyzeCase(caseDefs[position]) };
          if (world.grouped) held.push(done);
          else port2.postMessage(done);
        }
        if (held.length > 0) port2.postMessage({ agentblameCasesDone: held });
        return caseDefs.length;
      },
      analyzeGame: () => {
        throw new Error('not used');
      },
      warmUp: () => {
        world.warmUps = (world.warmUps ?? 0) + 1;
      },
    };
    Comlink.expose(api, port2);
    return Object.assign(port1, {
      terminate() {
        world.terminated++;
        if (channel) channel.closed = true;
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
  };
}

function items(ids: string[]): WorkItem[] {
  return ids.map((id, index) => ({ kind: 'case', index, caseDef: { id, inputs: { n: index } } }));
}

async function runAll(pool: PageAnalysisPool, work: WorkItem[], signal = new AbortController().signal) {
  const results: (CaseResult | undefined)[] = new Array(work.length);
  const outcome = await pool.run({ items: work, source: 'src', settings, players: ['a'], onResult: (i, r) => (results[i] = r) }, signal);
  return { outcome, results };
}

describe('PageAnalysisPool', () => {
  it('asks idle workers that have compiled nothing to warm up, never one with a definition', async () => {
    const world: FakeWorld = { terminated: 0, started: 0 };
    const fresh = new PageAnalysisPool(2, fakeWorkerFactory(world));
    fresh.warmUp();
    await runAll(fresh, items(['c0'])); // Comlink's answers arrive in order: the warm-up requests were received first.
    expect(world.warmUps).toBe(2);
    const loadedWorld: FakeWorld = { terminated: 0, started: 0 };
    const loaded = new PageAnalysisPool(2, fakeWorkerFactory(loadedWorld));
    await loaded.load('src', 'p.js');
    loaded.warmUp();
    await runAll(loaded, items(['c0']));
    expect(loadedWorld.warmUps ?? 0).toBe(0);
  });

  it('gives every case its own result by index, the same for one worker or three', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
    const one = new PageAnalysisPool(1, fakeWorkerFactory({ terminated: 0, started: 0 }));
    const three = new PageAnalysisPool(3, fakeWorkerFactory({ terminated: 0, started: 0 }));
    const a = await runAll(one, items(ids));
    const b = await runAll(three, items(ids));
    expect(a.outcome).toBe('done');
    expect(a.results.map((r) => r?.id)).toEqual(ids);
    expect(b.results).toEqual(a.results);
    one.dispose();
    three.dispose();
  });

  it('outcomes that arrive in groups give the same results as one message each, also when a group is lost with a stuck case', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
    const single = new PageAnalysisPool(1, fakeWorkerFactory({ terminated: 0, started: 0 }));
    const inGroups: FakeWorld = { terminated: 0, started: 0, grouped: true };
    const grouped = new PageAnalysisPool(1, fakeWorkerFactory(inGroups));
    expect((await runAll(grouped, items(ids))).results).toEqual((await runAll(single, items(ids))).results);
    // Every outcome was taken from its group: no case ran again on its own.
    expect(inGroups.singleCalls ?? 0).toBe(0);
    single.dispose();
    grouped.dispose();
    // c0's outcome is held back when hang1 never returns: c0 runs again, hang1 alone times out.
    const clock = new StuckOnlyClock();
    const world: FakeWorld = { terminated: 0, started: 0, clock, grouped: true };
    const pool = new PageAnalysisPool(1, fakeWorkerFactory(world), 50, clock.startTimer);
    const { outcome, results } = await runAll(pool, items(['c0', 'hang1', 'c2']));
    expect(outcome).toBe('done');
    expect(results.map((r) => [r?.id, r?.error === undefined])).toEqual([['c0', true], ['hang1', false], ['c2', true]]);
    expect(results[1]?.error).toMatch(/time/);
    pool.dispose();
  });

  it('stops a case past its time limit, replaces its worker and goes on with the next cases', async () => {
    const clock = new StuckOnlyClock();
    const world: FakeWorld = { terminated: 0, started: 0, clock };
    const pool = new PageAnalysisPool(1, fakeWorkerFactory(world), 50, clock.startTimer);
    const { outcome, results } = await runAll(pool, items(['c0', 'hang1', 'c2']));
    expect(outcome).toBe('done');
    expect(results[0]?.error).toBeUndefined();
    // The fake reports nothing, not even that it started the case: as a worker still receiving it.
    expect(results[1]?.error).toBe(`case "hang1": timed out after 0.05 s before its first step, while the case's inputs were being copied to the worker`);
    // Shaped like the engine's own error results: the step names kept, no values measured.
    expect(results[1]).toMatchObject({ id: 'hang1', players: ['a'], method: 'exact', failed: true, cost: 0 });
    expect(results[1]?.vEmpty).toBeNaN();
    expect(results[1]?.vAll).toBeNaN();
    expect(results[2]?.shapley).toEqual({ a: 2 });
    // Stopped twice: once running fast, once re-run with its steps reported, to name the step.
    expect(world.terminated).toBe(2);
    expect(world.started).toBe(3);
    pool.dispose();
  });

  /** `count` cases run by two fake workers: their ids, the results, and the size of each batch sent. */
  async function runCases(count: number) {
    const world: FakeWorld = { terminated: 0, started: 0, batches: [] };
    const pool = new PageAnalysisPool(2, fakeWorkerFactory(world));
    const ids = Array.from({ length: count }, (_, i) => `c${i}`);
    const { results } = await runAll(pool, items(ids));
    pool.dispose();
    return { ids, results, batches: world.batches };
  }

  it('sends cases in batches (about two per worker, at most 48) and gives the same results as one at a time', async () => {
    const { ids, results, batches } = await runCases(40);
    expect(batches).toEqual([10, 10, 10, 10]);
    expect(results.map((r) => r?.shapley)).toEqual(ids.map((_, i) => ({ a: i })));
    expect(pageBatchSize(1000, 2)).toBe(PAGE_MAX_BATCH);
    expect(pageBatchSize(3, 4)).toBe(1);
    // The command's pool keeps its smaller batches.
    expect(batchSizeFor(1000, 2)).toBe(16);
  });

  it('sends the 400 cases of the agent demo to 2 workers in 9 calls, not 25', async () => {
    const { ids, results, batches } = await runCases(400);
    expect(batches).toEqual([48, 48, 48, 48, 48, 48, 48, 48, 16]);
    expect(results.map((r) => r?.id)).toEqual(ids);
  });

  it('keeps the outcomes a batch posted before its stuck case, times out that case alone and runs the rest', async () => {
    const clock = new StuckOnlyClock();
    const world: FakeWorld = { terminated: 0, started: 0, batches: [], clock };
    const pool = new PageAnalysisPool(1, fakeWorkerFactory(world), 50, clock.startTimer);
    // Six cases on one worker: batches of three, the stuck case second in the first batch.
    const { outcome, results } = await runAll(pool, items(['c0', 'hang1', 'c2', 'c3', 'c4', 'c5']));
    expect(outcome).toBe('done');
    expect(results.map((r) => r?.id)).toEqual(['c0', 'hang1', 'c2', 'c3', 'c4', 'c5']);
    expect(results[1]?.error).toMatch(/^case "hang1": timed out after 0\.05 s before its first step/);
    expect(results.filter((r) => r?.error !== undefined)).toHaveLength(1);
    expect(results[5]?.shapley).toEqual({ a: 5 });
    // The batch's timeout and the watched re-run: two workers stopped, no third run of the stuck case.
    expect(world.terminated).toBe(2);
    expect(world.batches).toEqual([3, 3]);
    pool.dispose();
  });

  it('re-runs a timed-out case with step reports on, and names the step it got stuck in', async () => {
    const world = { terminated: 0, started: 0 };
    const watched: boolean[] = [];
    // The limit expires only once the step report has arrived: the stuck step is then known.
    const clock = new StuckOnlyClock();
    const factory = (): Worker => {
      world.started++;
      const { port1, port2 } = new MessageChannel();
      const channel = clock.track(port1, port2);
      Comlink.expose(
        {
          load: () => ({ ok: true, summary: { name: 'p', steps: [], cases: [], threshold: 1 } }),
          analyzeCase: (_: CaseDef, __: AnalysisSettings, watch: boolean) => {
            watched.push(watch);
            if (watch) port2.postMessage({ agentblameWatchdog: 1 });
            channel.stuck++;
            return new Promise<CaseResult>(() => {});
          },
          analyzeCases: () => {
            watched.push(false);
            channel.stuck++;
            return new Promise<number>(() => {});
          },
          analyzeGame: () => {
            throw new Error('not used');
          },
        },
        port2,
      );
      port1.start();
      return Object.assign(port1, {
        terminate() {
          world.terminated++;
          channel.closed = true;
          port1.close();
          port2.close();
        },
      }) as unknown as Worker;
    };
    const pool = new PageAnalysisPool(1, factory, 50, clock.startTimer);
    const results: (CaseResult | undefined)[] = [];
    await pool.run({ items: items(['stuck']), source: 'src', settings, players: ['a', 'b'], onResult: (i, r) => (results[i] = r) }, new AbortController().signal);
    expect(watched).toEqual([false, true]);
    // The command's pool words it the same way (pool/contract.ts timedOutResult).
    expect(results[0]?.error).toBe('case "stuck": timed out after 0.05 s in step "b"');
    pool.dispose();
  });

  it('cancels at once: busy workers are replaced and unstarted cases get no result', async () => {
    const world: FakeWorld = { terminated: 0, started: 0, stuck: 0 };
    const pool = new PageAnalysisPool(2, fakeWorkerFactory(world), 60_000);
    const abort = new AbortController();
    const running = runAll(pool, items(['hang0', 'hang1', 'c2', 'c3']), abort.signal);
    // Cancel once both workers are busy with their stuck cases (a fixed pause could end before
    // they started on a loaded machine, and then no worker would be busy to replace).
    while (world.stuck !== 2) await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    const { outcome, results } = await running;
    expect(outcome).toBe('cancelled');
    expect(results.filter((r) => r !== undefined)).toEqual([]);
    expect(world.terminated).toBe(2);
    // The pool is usable again afterwards.
    const again = await runAll(pool, items(['c0', 'c1']));
    expect(again.results.map((r) => r?.id)).toEqual(['c0', 'c1']);
    pool.dispose();
  });

  it('describes a definition in one worker while the others compile it; one listing cases is compiled again without them, also in workers started later', async () => {
    const clock = new StuckOnlyClock();
    const world: FakeWorld = { terminated: 0, started: 0, loads: [], clock };
    const pool = new PageAnalysisPool(3, fakeWorkerFactory(world), 50, clock.startTimer);
    expect((await pool.load('listed src', 'p.js')).ok).toBe(true);
    expect(world.loads!.slice(0, 3).sort()).toEqual(['describe listed src', 'load listed src', 'load listed src']);
    expect(world.loads!.slice(3)).toEqual(['load listed src without its cases', 'load listed src without its cases']);
    world.loads = [];
    const job = { items: items(['c0', 'hang1', 'c2']), source: 'listed src', settings, players: ['a'] };
    const results: (CaseResult | undefined)[] = [];
    await pool.run({ ...job, onResult: (i, r) => (results[i] = r) }, new AbortController().signal);
    expect(results[2]?.shapley).toEqual({ a: 2 });
    // The stuck case's worker was replaced; its successor (re-running the case) loads the text without the list.
    expect(world.loads).toEqual(['load listed src without its cases']);
    pool.dispose();
  });

  it('compiles a definition without listed cases once in every worker, all at once', async () => {
    const clock = new StuckOnlyClock();
    const world: FakeWorld = { terminated: 0, started: 0, loads: [], describeAfterLoads: 2, clock };
    const pool = new PageAnalysisPool(3, fakeWorkerFactory(world), 50, clock.startTimer);
    expect(await pool.load('src', 'p.js')).toMatchObject({ ok: true });
    expect(world.loads!.sort()).toEqual(['describe src', 'load src', 'load src']);
    world.loads = [];
    const { results } = await runAll(pool, items(['c0', 'c1', 'c2', 'c3']));
    expect(results.map((r) => r?.id)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(world.loads).toEqual([]);
    pool.dispose();
  });

  it('reports a definition that does not load in time instead of waiting for ever', async () => {
    const pool = new PageAnalysisPool(1, () => {
      const { port1, port2 } = new MessageChannel();
      Comlink.expose({ load: () => new Promise(() => {}) }, port2);
      return Object.assign(port1, { terminate: () => port1.close() }) as unknown as Worker;
    }, 30);
    const outcome = await pool.load('while (true) {}', 'forever.js');
    expect(outcome.ok).toBe(false);
    // The case limit plus the compile allowance (1 s per 100 000 characters), as in the command's pool.
    if (!outcome.ok) expect(outcome.problem.message).toBe('forever.js: evaluating the definition timed out after 1.03 s (0.03 s + 1 s to compile the definition)');
    pool.dispose();
  });

  it('builds the regression game in its first worker, and replaces a worker stuck building it', async () => {
    const calls: string[] = [];
    let started = 0;
    const pool = new PageAnalysisPool(2, () => {
      started++;
      const { port1, port2 } = new MessageChannel();
      Comlink.expose(
        {
          regressionGame: (after: { fileName: string; source: string }, before: { fileName: string; source: string }) => {
            calls.push(`${after.fileName} against ${before.fileName}`);
            if (before.source === 'forever') return new Promise(() => {});
            return before.source === 'no step' ? { ok: false, message: 'step "x" was removed' } : { ok: true, source: 'game', reverseSource: 'reverse', steps: [{ name: 'x', change: 'changed' }], notes: [] };
          },
        },
        port2,
      );
      return Object.assign(port1, { terminate: () => port1.close() }) as unknown as Worker;
    }, 30);
    expect(await pool.regressionGame({ fileName: 'now.js', source: 'a' }, { fileName: 'then.js', source: 'b' })).toEqual({ ok: true, source: 'game', reverseSource: 'reverse', steps: [{ name: 'x', change: 'changed' }], notes: [] });
    expect(await pool.regressionGame({ fileName: 'now.js', source: 'a' }, { fileName: 'then.js', source: 'no step' })).toEqual({ ok: false, message: 'step "x" was removed' });
    expect(started).toBe(2);
    const stuck = await pool.regressionGame({ fileName: 'now.js', source: 'a' }, { fileName: 'then.js', source: 'forever' });
    expect(stuck.ok).toBe(false);
    if (!stuck.ok) expect(stuck.message).toMatch(/^then\.js: building the regression game took longer than 2 s/);
    // The stuck worker was replaced, and the next game is built in the new one.
    expect(started).toBe(3);
    expect((await pool.regressionGame({ fileName: 'now.js', source: 'a' }, { fileName: 'then.js', source: 'b' })).ok).toBe(true);
    expect(calls).toEqual(['now.js against then.js', 'now.js against then.js', 'now.js against then.js', 'now.js against then.js']);
    pool.dispose();
  });
});
