/**
 * The pool when a worker is lost with its process (out of memory in the page's sandboxed frames).
 * The fake workers share a fake process, as Chromium puts the sandboxed frames of one site in one
 * process: a case "oom*" crashes it, and every worker in it is lost at once.
 */
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { testResult } from '../../engine/testing/results.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import { PageAnalysisPool, type WorkItem } from './analysis-pool.ts';
import { CRASHED } from './frame-heartbeat.ts';
import type { AnalysisWorker } from './protocol.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, seed: 0 };
const never = <T>() => new Promise<T>(() => {});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FakeWorker {
  dead: boolean;
  /** Cases it is analysing now. */
  running: number;
  lose(reason: string): void;
}

class FakeBrowser {
  /** The workers of the live process; a crash loses them all and the next ones start in a new process. */
  process = new Set<FakeWorker>();
  /** For each run of an "oom" case: how many cases other live workers were analysing when it started. */
  oomRuns: number[] = [];
  started = 0;
  /** The longest a crashed worker's loss may go unnoticed (each frame's heartbeat notices on its own). */
  noticeMs = 5;

  crash(): void {
    const lost = this.process;
    this.process = new Set();
    // As the heartbeat: each frame is noticed a little later.
    for (const worker of lost) {
      worker.dead = true;
      setTimeout(() => worker.lose(CRASHED), 1 + Math.floor(Math.random() * this.noticeMs));
    }
  }

  factory = (): AnalysisWorker => {
    this.started++;
    const { port1, port2 } = new MessageChannel();
    let lose: (reason: string) => void = () => {};
    const me: FakeWorker = { dead: false, running: 0, lose: (reason) => lose(reason) };
    this.process.add(me);
    const analyzeCase = async (caseDef: CaseDef, _s: AnalysisSettings, watch = false): Promise<CaseResult> => {
      if (watch) port2.postMessage({ agentblameWatchdog: 0 });
      // A call that rejects (as when a value cannot be cloned), not a lost worker.
      if (caseDef.id.startsWith('reject')) throw new Error('could not be cloned');
      if (caseDef.id.startsWith('oom')) {
        this.oomRuns.push([...this.process].filter((worker) => worker !== me && !worker.dead).reduce((sum, worker) => sum + worker.running, 0));
        setTimeout(() => this.crash(), 3);
        return never();
      }
      me.running++;
      await pause(10);
      me.running--;
      if (me.dead) return never();
      return testResult({ id: caseDef.id, players: ['a'], method: 'exact', failed: true, vEmpty: 0, vAll: 1, shapley: { a: Number(caseDef.inputs.n) }, cost: 1, evaluations: 2, permutations: 0 });
    };
    Comlink.expose(
      {
        load: async (source: string) => {
          if (source.includes('OOM')) {
            setTimeout(() => this.crash(), 3);
            return never();
          }
          await pause(2);
          return me.dead ? never() : { ok: true, summary: { name: 'p', steps: [], cases: [], threshold: 1 } };
        },
        analyzeCase,
        analyzeCases: async (caseDefs: CaseDef[]) => {
          for (let position = 0; position < caseDefs.length; position++) {
            const outcome = await analyzeCase(caseDefs[position], settings);
            port2.postMessage({ agentblameCaseDone: position, outcome });
          }
          return caseDefs.length;
        },
        analyzeGame: () => never(),
      },
      port2,
    );
    return Object.assign(port1, {
      terminate: () => {
        me.dead = true;
        this.process.delete(me);
        port1.close();
        port2.close();
      },
      lost: new Promise<string>((resolve) => (lose = resolve)),
    });
  };
}

function items(ids: string[]): WorkItem[] {
  return ids.map((id, index) => ({ kind: 'case', index, caseDef: { id, inputs: { n: index } } }));
}

async function runAll(pool: PageAnalysisPool, work: WorkItem[], source = 'src') {
  const results: (CaseResult | undefined)[] = new Array(work.length);
  const outcome = await pool.run({ items: work, source, settings, players: ['a'], onResult: (i, r) => (results[i] = r) }, new AbortController().signal);
  return { outcome, results };
}

describe('PageAnalysisPool, workers lost with their process', () => {
  it('charges the case that crashes the shared process, run again alone; the cases lost beside it are analysed', async () => {
    const browser = new FakeBrowser();
    const pool = new PageAnalysisPool(2, browser.factory);
    const ids = ['c0', 'c1', 'c2', 'c3', 'c4', 'oom5', 'c6', 'c7', 'c8', 'c9', 'c10', 'c11'];
    const { outcome, results } = await runAll(pool, items(ids));
    expect(outcome).toBe('done');
    expect(results.map((r) => r?.id)).toEqual(ids);
    expect(results[5]?.error).toBe(`case "oom5": the worker was lost in step "a": ${CRASHED}`);
    for (const [i, result] of results.entries()) if (i !== 5) expect(result?.shapley).toEqual({ a: i });
    // Crashed beside another call first, then alone, which charged it.
    expect(browser.oomRuns.length).toBe(2);
    expect(browser.oomRuns.at(-1)).toBe(0);
    pool.dispose();
  });

  it('with one worker, charges the case after its run alone, and the rest of its batch is analysed', async () => {
    const browser = new FakeBrowser();
    const pool = new PageAnalysisPool(1, browser.factory);
    const { results } = await runAll(pool, items(['c0', 'oom1', 'c2', 'c3']));
    expect(results[1]?.error).toBe(`case "oom1": the worker was lost in step "a": ${CRASHED}`);
    expect(results.filter((r) => r?.error === undefined).map((r) => r?.id)).toEqual(['c0', 'c2', 'c3']);
    pool.dispose();
  });

  it('reports a definition whose evaluation crashes the process, after trying it alone', async () => {
    const browser = new FakeBrowser();
    const pool = new PageAnalysisPool(2, browser.factory);
    const outcome = await pool.load('OOM at the top level', 'p.js');
    expect(outcome).toEqual({ ok: false, problem: { message: `p.js: evaluating the definition: the worker was lost: ${CRASHED}` } });
    // The pool goes on with a definition that loads.
    expect((await pool.load('src', 'p.js')).ok).toBe(true);
    const { results } = await runAll(pool, items(['c0', 'c1', 'c2']));
    expect(results.map((r) => r?.shapley)).toEqual([{ a: 0 }, { a: 1 }, { a: 2 }]);
    pool.dispose();
  });

  it('with two cases that crash the process, charges only those two, however late each loss is noticed', async () => {
    for (let round = 0; round < 6; round++) {
      const browser = new FakeBrowser();
      browser.noticeMs = 60;
      const pool = new PageAnalysisPool(2, browser.factory);
      const ids = ['c0', 'oom1', 'c2', 'c3', 'oom4', 'c5', 'c6', 'c7'];
      const { outcome, results } = await runAll(pool, items(ids));
      expect(outcome).toBe('done');
      expect(results.filter((r) => r?.error !== undefined).map((r) => r?.id)).toEqual(['oom1', 'oom4']);
      pool.dispose();
    }
  }, 30_000);

  it('a call that rejects fails its run but frees the gate: a later run needing a call alone finishes', async () => {
    const browser = new FakeBrowser();
    const pool = new PageAnalysisPool(2, browser.factory);
    await expect(runAll(pool, items(['c0', 'reject1', 'c2', 'c3']))).rejects.toThrow('could not be cloned');
    // The failed run stopped its other calls before it rejected: nothing of it meets the next run.
    expect(pool.callsRunning).toBe(0);
    // The "oom" case must run alone to be charged, which waits for every shared call's release.
    const { outcome, results } = await runAll(pool, items(['c0', 'oom1', 'c2', 'c3']));
    expect(outcome).toBe('done');
    expect(results[1]?.error).toBe(`case "oom1": the worker was lost in step "a": ${CRASHED}`);
    expect(results.filter((r) => r?.error === undefined).map((r) => r?.id)).toEqual(['c0', 'c2', 'c3']);
    pool.dispose();
  }, 10_000);

  it('replaces a worker lost while idle before giving it work, charging nothing', async () => {
    const browser = new FakeBrowser();
    const pool = new PageAnalysisPool(2, browser.factory);
    await pool.load('src', 'p.js');
    browser.crash();
    await pause(20);
    const { results } = await runAll(pool, items(['c0', 'c1', 'c2', 'c3']));
    expect(results.map((r) => r?.error)).toEqual([undefined, undefined, undefined, undefined]);
    expect(browser.started).toBe(4);
    pool.dispose();
  });
});
