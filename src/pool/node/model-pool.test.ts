import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, NO_USAGE, type ModelAnswer } from '../../engine/index.ts';
import { toyAnswer } from '../../engine/testing/toy-model.ts';
import type { AnalysisSettings } from '../../engine/types.ts';
import { describeSource, analyzeSourceCaseRound } from '../../sandbox/analyze-source.ts';
import { TRIAGE_SOURCE } from '../../sandbox/testing/triage-source.ts';
import { MAX_MODEL_ROUNDS, NodeAnalysisPool, type ModelResolver } from './analysis-pool.ts';
import { CountingResolver } from '../testing/counting-resolver.ts';
import { oneStepSource } from '../../sandbox/testing/one-step.ts';
import { WorkerProcess } from './worker-process.ts';
import type { WorkerRequest } from './protocol.ts';

const pools: NodeAnalysisPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, models: { default: 'toy-1' }, mode: 'posterior', worlds: 3 };

describe('NodeAnalysisPool with model steps', () => {
  const cases = describeSource(TRIAGE_SOURCE).cases;

  it('sends a case waiting on responses once: its later rounds name it by its place in the worker\'s last batch, with the same results', async () => {
    const sentCases: string[] = [];
    const post = WorkerProcess.prototype.postMessage;
    const spy = vi.spyOn(WorkerProcess.prototype, 'postMessage').mockImplementation(function (this: WorkerProcess, request: WorkerRequest) {
      if (request.type === 'run') for (const c of request.cases) sentCases.push('id' in c ? c.id : `held ${c.held}`);
      post.call(this, request);
    });
    try {
      const pool = new NodeAnalysisPool({ size: 1, model: new CountingResolver() });
      pools.push(pool);
      const one = [cases[0]];
      const [result] = await pool.run(TRIAGE_SOURCE, one, settings);
      expect(result.error).toBeUndefined();
      // The first round sends the case; every round after it (at least one: it waits on the model) names it.
      expect(sentCases[0]).toBe(cases[0].id);
      expect(sentCases.length).toBeGreaterThan(1);
      expect(sentCases.slice(1)).toEqual(sentCases.slice(1).map(() => 'held 0'));
      const answers = new Map<string, ModelAnswer>();
      let round = analyzeSourceCaseRound(TRIAGE_SOURCE, cases[0], settings, answers);
      while (round.kind === 'pending') {
        for (const p of round.requests) answers.set(p.key, toyAnswer(p.request));
        round = analyzeSourceCaseRound(TRIAGE_SOURCE, cases[0], settings, answers);
      }
      const { usage, ...rest } = result;
      expect(usage).toBeDefined();
      expect(rest).toEqual(round.kind === 'result' ? round.result : null);
    } finally {
      spy.mockRestore();
    }
  });

  it('fetches what cases wait for, sends each distinct request once over all workers, and gives the in-process results', async () => {
    const resolver = new CountingResolver();
    const pool = new NodeAnalysisPool({ size: 2, model: resolver });
    pools.push(pool);
    const results = await pool.run(TRIAGE_SOURCE, cases, settings);
    expect(new Set(resolver.sent).size).toBe(resolver.sent.length);
    for (const [k, result] of results.entries()) {
      expect(result.error).toBeUndefined();
      const answers = new Map<string, ModelAnswer>();
      let round = analyzeSourceCaseRound(TRIAGE_SOURCE, cases[k], settings, answers);
      while (round.kind === 'pending') {
        for (const p of round.requests) answers.set(p.key, toyAnswer(p.request));
        round = analyzeSourceCaseRound(TRIAGE_SOURCE, cases[k], settings, answers);
      }
      const { usage, ...rest } = result;
      expect(rest).toEqual(round.result);
      expect(usage).toEqual(resolver.usage(cases[k].id));
    }
    // The tickets differ, so each case needs its own prompts: the requests are many, each sent once.
    expect(resolver.sent.length).toBeGreaterThan(cases.length);
  });

  it('makes a model call without a host a per-case error naming the step', async () => {
    const pool = new NodeAnalysisPool({ size: 1 });
    pools.push(pool);
    const results = await pool.run(TRIAGE_SOURCE, cases.slice(0, 2), settings);
    expect(results[0].error).toBe('case "t0": step "classify" calls a model (llm.chat or llm.choose), but no model is configured: pass --model-url URL --model ID, or --cache FILE holding its responses');
  });

  it('makes a failing host a per-case error and goes on with the other cases', async () => {
    const resolver: ModelResolver = {
      resolve: async (requests) => {
        if (requests.some((r) => r.caseId === 't1')) throw new Error('endpoint http://127.0.0.1:9 refused the connection');
        return new Map(requests.map((r) => [r.key, toyAnswer(r.request)]));
      },
      usage: () => ({ ...NO_USAGE }),
    };
    const pool = new NodeAnalysisPool({ size: 1, model: resolver });
    pools.push(pool);
    const results = await pool.run(TRIAGE_SOURCE, cases.slice(0, 3), settings);
    expect(results[1].error).toBe('case "t1": model requests of step "classify" failed: endpoint http://127.0.0.1:9 refused the connection');
    expect(results[0].error).toBeUndefined();
    expect(results[2].error).toBeUndefined();
  });

  it('a step that catches its own suspension and asks again for ever times out, naming the step; the other cases go on', async () => {
    const resolver = new CountingResolver();
    const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 1500, model: resolver });
    pools.push(pool);
    const source = oneStepSource(`if (inputs.question === 'spin') { for (;;) { try { return llm.chat({ messages: [{ role: 'user', content: 'q' }], temperature: 0 }).text; } catch (e) {} } } return 'as run';`)
      .replace('run: (inputs, noise) =>', 'run: (inputs, noise, { llm }) =>');
    const question = (id: string, text: string) => ({ id, inputs: { question: text, doc: null } });
    const results = await pool.run(source, [question('before', 'q'), question('spin', 'spin'), question('after', 'q')], settings);
    expect(results[1].error).toBe('case "spin": timed out after 1.5 s in step "probe"');
    expect(results[0].error).toBeUndefined();
    expect(results[2].error).toBeUndefined();
    expect(resolver.sent).toHaveLength(0);
  });

  it(`a step that calls llm thousands of times in sequence stops after ${MAX_MODEL_ROUNDS} rounds with a clear error`, async () => {
    const resolver = new CountingResolver();
    const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 60_000, model: resolver });
    pools.push(pool);
    const source = oneStepSource(`let text = ''; for (let i = 0; i < 5000; i++) text = llm.chat({ messages: [{ role: 'user', content: 'q' + i + text.length }], temperature: 0 }).text; return text;`)
      .replace('run: (inputs, noise) =>', 'run: (inputs, noise, { llm }) =>');
    const [result] = await pool.run(source, [{ id: 'loop', inputs: { question: 'q', doc: null } }], settings);
    expect(result.error).toBe(`case "loop": step "probe" still asks for new model requests after ${MAX_MODEL_ROUNDS} rounds; a step's requests must follow from its inputs and earlier answers`);
    expect(resolver.sent.length).toBeLessThanOrEqual(MAX_MODEL_ROUNDS);
  }, 120_000);
});
