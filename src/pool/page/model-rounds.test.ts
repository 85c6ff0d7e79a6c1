/**
 * The page's pool with model steps: in-process "workers" run the real sandboxed analysis, and the
 * pool fetches what their cases wait for through a model host, one round after another.
 */
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, NO_USAGE, type ModelAnswer, type PendingRequest } from '../../engine/index.ts';
import { toyAnswer } from '../../engine/testing/toy-model.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import { analyzeSourceCaseRound, describeSource } from '../../sandbox/analyze-source.ts';
import { TRIAGE_SOURCE } from '../../sandbox/testing/triage-source.ts';
import type { ModelResolver } from '../contract.ts';
import { PageAnalysisPool, type WorkItem } from './analysis-pool.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, models: { default: 'toy-1' } };

function sandboxWorker(): Worker {
  const { port1, port2 } = new MessageChannel();
  const analyzeCase = (caseDef: CaseDef, s: AnalysisSettings, _watch = false, answers?: Record<string, ModelAnswer>) => {
    const round = analyzeSourceCaseRound(TRIAGE_SOURCE, caseDef, s, new Map(Object.entries(answers ?? {})));
    return round.kind === 'pending' ? { pending: round.requests } : round.result;
  };
  const api = {
    load: () => ({ ok: true, summary: { name: 'triage', steps: [], cases: [], threshold: 1 } }),
    analyzeCase,
    // As the real worker: a batch's outcomes posted one by one, outside Comlink.
    analyzeCases: (caseDefs: CaseDef[], s: AnalysisSettings) => {
      caseDefs.forEach((caseDef, position) => port2.postMessage({ agentblameCaseDone: position, outcome: analyzeCase(caseDef, s) }));
      return caseDefs.length;
    },
    analyzeGame: () => {
      throw new Error('not used');
    },
  };
  Comlink.expose(api, port2);
  return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker;
}

class ToyResolver implements ModelResolver {
  readonly sent: string[] = [];
  private readonly known = new Map<string, ModelAnswer>();
  async resolve(requests: (PendingRequest & { caseId: string })[]) {
    const out = new Map<string, ModelAnswer>();
    for (const r of requests) {
      if (!this.known.has(r.key)) {
        this.sent.push(r.key);
        this.known.set(r.key, toyAnswer(r.request));
      }
      out.set(r.key, this.known.get(r.key)!);
    }
    return out;
  }
  usage() {
    return { ...NO_USAGE, requests: 1 };
  }
}

describe('the page pool with model steps', () => {
  const cases = describeSource(TRIAGE_SOURCE).cases;
  const work: WorkItem[] = cases.map((caseDef, index) => ({ kind: 'case', index, caseDef }));
  const players = ['classify', 'draft', 'review'];

  it('fetches pending requests once each and returns the results of a run with every answer known', async () => {
    const model = new ToyResolver();
    const pool = new PageAnalysisPool(2, sandboxWorker);
    const results: CaseResult[] = [];
    const outcome = await pool.run({ items: work, source: TRIAGE_SOURCE, settings, players, onResult: (i, r) => (results[i] = r), model }, new AbortController().signal);
    expect(outcome).toBe('done');
    expect(new Set(model.sent).size).toBe(model.sent.length);
    for (const r of results) {
      expect(r.error).toBeUndefined();
      expect(r.usage).toEqual({ ...NO_USAGE, requests: 1 });
    }
    pool.dispose();
  });

  it('makes a model call a per-case error when no model is set up', async () => {
    const pool = new PageAnalysisPool(1, sandboxWorker);
    const results: CaseResult[] = [];
    await pool.run({ items: work.slice(0, 1), source: TRIAGE_SOURCE, settings, players, onResult: (i, r) => (results[i] = r) }, new AbortController().signal);
    expect(results[0].error).toBe('case "t0": step "classify" calls a model (llm.chat or llm.choose), but no model is set up: open Settings > Model');
    pool.dispose();
  });

  it('cancels while requests are in flight', async () => {
    const never: ModelResolver = { resolve: () => new Promise(() => {}), usage: () => ({ ...NO_USAGE }) };
    const pool = new PageAnalysisPool(1, sandboxWorker);
    const controller = new AbortController();
    const running = pool.run({ items: work, source: TRIAGE_SOURCE, settings, players, onResult: () => {}, model: never }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await running).toBe('cancelled');
    pool.dispose();
  });
});
