import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { analyzeTableGame, type TableGame } from '../../engine/table-game.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import { oneStepSource } from '../../sandbox/testing/one-step.ts';
import { REFUND_POLICY_SOURCE } from '../../sandbox/testing/refund-policy.ts';
import { analyzeSourceCase } from '../../sandbox/analyze-source.ts';
import { NodeAnalysisPool, PipelineDefinitionError, preparationAllowanceMs } from './analysis-pool.ts';
import { WorkerProcess } from './worker-process.ts';
import type { WorkerReply, WorkerRequest, WorkerWhere } from './protocol.ts';
import { analysisWorkerScript } from './worker-script.ts';

const pools: NodeAnalysisPool[] = [];
function makePool(size: number, timeoutMs = 10_000): NodeAnalysisPool {
  const pool = new NodeAnalysisPool({ size, timeoutMs });
  pools.push(pool);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** Refund policy where step "writer" spins forever on the question "loop" and "crash" makes it throw. */
const TRAPPED_SOURCE = REFUND_POLICY_SOURCE.replace(
  "run: ({ planner, retriever }) => draftFrom(planner, retriever, false),",
  "run: ({ planner, retriever }) => { if (planner.endsWith('loop')) { while (true) {} } if (planner.endsWith('crash')) { throw new Error('writer crashed'); } return draftFrom(planner, retriever, false); },",
);

const question = (id: string, text: string, seed: number): CaseDef => ({ id, inputs: { question: text }, seed });

/** A definition whose outcome depends on the noise, so cases differ and Monte Carlo has work to do. */
const NOISY_SOURCE = `
export default {
  name: 'noisy',
  steps: ['a', 'b', 'c', 'd', 'e'].map((name, i) => ({
    name, inputs: i === 0 ? ['x'] : [['a', 'b', 'c', 'd', 'e'][i - 1]], cost: 1,
    run: (inputs, noise) => noise.categorical({ good: 0.5, bad: 1 }, 'pick'),
    fixes: [{ name: 'better', cost: 2, run: (inputs, noise) => noise.categorical({ good: 2, bad: 0 }, 'pick') }],
  })),
  metric: (outputs) => ['a', 'b', 'c', 'd', 'e'].filter((name) => outputs[name] === 'good').length >= 4 ? 1 : 0,
};`;

describe('NodeAnalysisPool', () => {
  it('analyses the refund-policy cases in workers, results in case order', async () => {
    const pool = makePool(2);
    const description = await pool.describe(REFUND_POLICY_SOURCE);
    expect(description.steps.map((step) => step.name)).toEqual(['planner', 'retriever', 'writer', 'reviewer']);
    const seen: number[] = [];
    const results = await pool.run(REFUND_POLICY_SOURCE, description.cases, DEFAULT_SETTINGS, (index) => seen.push(index));
    expect(results.map((r) => r.id)).toEqual(['q1', 'q2']);
    expect(seen.sort()).toEqual([0, 1]);
    for (const result of results) {
      expect(result.error).toBeUndefined();
      expect(result.shapley!.planner).toBeCloseTo(5 / 12, 12);
      expect(result.shapley!.retriever).toBeCloseTo(5 / 12, 12);
      expect(result.shapley!.writer).toBeCloseTo(1 / 12, 12);
      expect(result.shapley!.reviewer).toBeCloseTo(1 / 12, 12);
    }
  });

  it('sends a definition to a worker once, not with every batch, and switches definitions correctly', async () => {
    const sent = vi.spyOn(WorkerProcess.prototype, 'postMessage');
    try {
      const pool = makePool(1);
      const cases = Array.from({ length: 40 }, (_, i) => question(`q${i}`, `question ${i}?`, i));
      const first = await pool.run(REFUND_POLICY_SOURCE, cases, DEFAULT_SETTINGS);
      const other = await pool.run(NOISY_SOURCE, [{ id: 'n', inputs: { x: 1 }, seed: 3 }], DEFAULT_SETTINGS);
      const again = await pool.run(REFUND_POLICY_SOURCE, cases.slice(0, 2), DEFAULT_SETTINGS);
      const requests = sent.mock.calls.map(([request]) => request as WorkerRequest);
      const runs = requests.filter((r) => r.type === 'run');
      expect(runs.length).toBeGreaterThan(3);
      // describe (refund), its batches, describe (noisy), its run, the refund run again (two batches): a source only at each switch.
      const sourceOf = (r: WorkerRequest) => (r.type === 'games' ? undefined : r.source);
      expect(requests.map((r) => (sourceOf(r) === undefined ? '-' : sourceOf(r) === REFUND_POLICY_SOURCE ? 'R' : 'N')).join('').replace(/-+/g, '-')).toBe('R-N-R-');
      expect(first.every((r) => r.error === undefined)).toBe(true);
      expect(other[0].error).toBeUndefined();
      expect(again.map((r) => r.shapley)).toEqual(first.slice(0, 2).map((r) => r.shapley));
    } finally {
      sent.mockRestore();
    }
  });

  it('sends workers the definition without its listed cases, and they never read them', async () => {
    // Reading the list leaves a mark the step reports: a worker that read it would give other
    // results. Case c0 spins, so the other cases run on a fresh worker, one that did not describe.
    const body = `const seen = [];
export default {
  name: 'own',
  steps: [{ name: 'a', inputs: ['x'], cost: 1, run: ({ x }) => { if (x === 0) while (true) {} return seen.length > 0 ? 'read' : x % 2 ? 'bad' : 'ok'; }, fixes: [{ name: 'f', cost: 1, run: () => 'ok' }] }],
  metric: (outputs) => (outputs.a === 'ok' ? 1 : 0),
  CASES
};`;
    const cases = Array.from({ length: 60 }, (_, i) => ({ id: `c${i}`, inputs: { x: i } }));
    const listedSource = body.replace('CASES', `cases: (seen.push(1), [\n${cases.map((c) => JSON.stringify(c)).join(',\n')}\n]),`);
    const sent = vi.spyOn(WorkerProcess.prototype, 'postMessage');
    try {
      const pool = makePool(1, 1500);
      const description = await pool.describe(listedSource);
      expect(description.cases).toEqual(cases);
      const listed = await pool.run(listedSource, description.cases, DEFAULT_SETTINGS);
      const given = await makePool(1, 1500).run(body.replace('CASES', ''), cases, DEFAULT_SETTINGS);
      expect(listed[0].error).toBe('case "c0": timed out after 1.5 s in step "a"');
      expect(listed.slice(1).map((r) => r.error ?? r.factualOutputs?.a)).toEqual(cases.slice(1).map((c) => (c.inputs.x % 2 ? 'bad' : 'ok')));
      expect(listed).toEqual(given);
      const runSources = sent.mock.calls.map(([request]) => request as WorkerRequest).filter((r): r is Extract<WorkerRequest, { type: 'run' }> => r.type === 'run' && r.source !== undefined);
      expect(runSources.length).toBeGreaterThan(0);
      for (const request of runSources) expect(request.source).not.toContain('"c59"');
    } finally {
      sent.mockRestore();
    }
  });

  it('gives a definition new to a worker 1 s per 100 000 characters for parsing it, and says so when it still times out', async () => {
    expect(preparationAllowanceMs('x'.repeat(10))).toBe(1000);
    expect(preparationAllowanceMs('x'.repeat(100_000))).toBe(1000);
    expect(preparationAllowanceMs('x'.repeat(12_000_000))).toBe(120_000);
    const spinning = `// ${'x'.repeat(150_000)}\nwhile (true) {}\nexport default {};`;
    await expect(makePool(1, 500).describe(spinning)).rejects.toThrow('pipeline.js: evaluating the definition timed out after 2.5 s (0.5 s + 2 s to compile the definition)');
  });

  it("says what allowance the first case of a definition new to its worker had, when it times out", async () => {
    // 150 000 characters: 2 s of allowance. The first case spins on the worker that described the
    // definition (no allowance), the second on its fresh successor (the allowance).
    const source = `// ${'x'.repeat(150_000)}\n${TRAPPED_SOURCE}`;
    const results = await makePool(1, 500).run(source, [question('s1', 'loop', 1), question('s2', 'loop', 2)], DEFAULT_SETTINGS);
    expect(results.map((r) => r.error)).toEqual([
      'case "s1": timed out after 0.5 s in step "writer"',
      'case "s2": timed out after 2.5 s (0.5 s + 2 s to compile the definition) in step "writer"',
    ]);
  });

  it('says a case timed out before its first step when its worker never started it (its inputs still on the way), and blames no other case of its batch', async () => {
    const pool = makePool(1, 500);
    await pool.describe(REFUND_POLICY_SOURCE);
    // A batch holding "huge" never arrives, as one whose inputs take longer to copy than the limit.
    const send = WorkerProcess.prototype.postMessage;
    const lost = vi.spyOn(WorkerProcess.prototype, 'postMessage').mockImplementation(function (this: WorkerProcess, request) {
      if (request.type !== 'run' || !request.cases.some((c) => 'id' in c && c.id === 'huge')) send.call(this, request);
    });
    try {
      // Batches of 2: "before" and "huge" are sent together, then each on its own.
      const results = await pool.run(REFUND_POLICY_SOURCE, [question('before', 'refund?', 1), question('huge', 'refund?', 2), question('after', 'refund?', 3)], DEFAULT_SETTINGS);
      expect(results.map((r) => r.error)).toEqual([
        undefined,
        `case "huge": timed out after 0.5 s before its first step, while the case's inputs were being copied to the worker`,
        undefined,
      ]);
    } finally {
      lost.mockRestore();
    }
  });

  it('gives identical results with 1 and 2 workers', async () => {
    const cases = Array.from({ length: 8 }, (_, i) => ({ id: `n${i}`, inputs: { x: i }, seed: 100 + i }));
    const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'mc', maxPermutations: 200 };
    const [one, two] = await Promise.all([makePool(1).run(NOISY_SOURCE, cases, settings), makePool(2).run(NOISY_SOURCE, cases, settings)]);
    expect(one.filter((r) => r.failed).length).toBeGreaterThan(0);
    expect(one.every((r) => r.error === undefined)).toBe(true);
    expect(two).toEqual(one);
  });

  it('times out a case that spins forever, names its step, and still finishes the others', async () => {
    const pool = makePool(2, 1000);
    const cases = [question('ok1', 'refund?', 1), question('spin', 'loop', 2), question('ok2', 'shipping?', 3), question('ok3', 'returns?', 4)];
    const results = await pool.run(TRAPPED_SOURCE, cases, DEFAULT_SETTINGS);
    expect(results.map((r) => r.id)).toEqual(['ok1', 'spin', 'ok2', 'ok3']);
    // With 2 workers the spinning case may be the first its worker runs of the definition: then it
    // had the compile allowance, and says so.
    expect(results[1]).toMatchObject({ id: 'spin', failed: true });
    expect(results[1].error).toMatch(/^case "spin": timed out after (1 s|2 s \(1 s \+ 1 s to compile the definition\)) in step "writer"$/);
    for (const index of [0, 2, 3]) {
      expect(results[index].error).toBeUndefined();
      expect(results[index].shapley!.planner).toBeCloseTo(5 / 12, 12);
    }
    // The replaced worker serves later calls.
    const again = await pool.run(TRAPPED_SOURCE, [question('ok4', 'again?', 5), question('ok5', 'more?', 6)], DEFAULT_SETTINGS);
    expect(again.map((r) => r.error)).toEqual([undefined, undefined]);
  });

  it('times out one case of a batch and finishes the batch\'s other cases on a fresh worker', async () => {
    // One worker and six cases: batches of three, the spinning case second in the first batch.
    const pool = makePool(1, 1000);
    const texts = ['refund?', 'loop', 'shipping?', 'returns?', 'again?', 'more?'];
    const cases = texts.map((text, i) => question(`c${i}`, text, i + 1));
    const seen: number[] = [];
    const results = await pool.run(TRAPPED_SOURCE, cases, DEFAULT_SETTINGS, (index) => seen.push(index));
    expect(results.map((r) => r.id)).toEqual(cases.map((c) => c.id));
    expect(results[1].error).toBe('case "c1": timed out after 1 s in step "writer"');
    for (const index of [0, 2, 3, 4, 5]) expect(results[index].error).toBeUndefined();
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('sends a busy worker its next batch before it finishes the one it is on (no round trip between batches)', async () => {
    // One worker and six cases: batches of three. The second batch must be on its way before the
    // first batch's first answer comes back.
    const events: string[] = [];
    const original = WorkerProcess.prototype.postMessage;
    const spy = vi.spyOn(WorkerProcess.prototype, 'postMessage').mockImplementation(function (this: WorkerProcess, request: WorkerRequest) {
      if (request.type === 'run') events.push(`run ${request.cases.map((c) => ('id' in c ? c.id : `held ${c.held}`)).join(',')}`);
      original.call(this, request);
    });
    try {
      const pool = makePool(1);
      const cases = ['a?', 'b?', 'c?', 'd?', 'e?', 'f?'].map((text, i) => question(`c${i}`, text, i + 1));
      const results = await pool.run(REFUND_POLICY_SOURCE, cases, DEFAULT_SETTINGS, (index) => events.push(`result c${index}`));
      expect(results.every((r) => r.error === undefined)).toBe(true);
      expect(events.slice(0, 3)).toEqual(['run c0,c1,c2', 'run c3,c4,c5', 'result c0']);
    } finally {
      spy.mockRestore();
    }
  });

  it('times out a case of the batch a worker held behind its first, and finishes every other case', async () => {
    // One worker, six cases in batches of three: the spinning case is the second batch's second.
    const pool = makePool(1, 1000);
    const texts = ['refund?', 'shipping?', 'returns?', 'again?', 'loop', 'more?'];
    const cases = texts.map((text, i) => question(`c${i}`, text, i + 1));
    const results = await pool.run(TRAPPED_SOURCE, cases, DEFAULT_SETTINGS);
    expect(results.map((r) => r.id)).toEqual(cases.map((c) => c.id));
    expect(results[4].error).toBe('case "c4": timed out after 1 s in step "writer"');
    for (const index of [0, 1, 2, 3, 5]) expect(results[index].error).toBeUndefined();
  });

  it('gives the same results as analysing in this thread, coalition tables included', async () => {
    // The worker sends each table packed (typed arrays) and the pool puts it back (engine/packed-coalitions.ts).
    const cases = Array.from({ length: 6 }, (_, i) => ({ id: `n${i}`, inputs: { x: i }, seed: 500 + i }));
    const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact' };
    const pooled = await makePool(2).run(NOISY_SOURCE, cases, settings);
    const inThread = cases.map((c) => analyzeSourceCase(NOISY_SOURCE, c, settings));
    const failing = inThread.filter((r) => r.failed && r.error === undefined);
    expect(failing.length).toBeGreaterThan(0);
    for (const r of failing) expect(r.coalitions).toHaveLength(32);
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(inThread));
    expect(pooled).toEqual(inThread);
  });

  it('gives the same results whatever the batches', async () => {
    const cases = Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, inputs: { x: i }, seed: 300 + i }));
    const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'mc', maxPermutations: 50 };
    // 40 cases on 1 worker go in batches of 16; one at a time, each is a batch of one.
    const pool = makePool(1);
    const batched = await pool.run(NOISY_SOURCE, cases, settings);
    const single: CaseResult[] = [];
    for (const c of cases) single.push(...(await pool.run(NOISY_SOURCE, [c], settings)));
    expect(batched).toEqual(single);
  });

  it('names the metric when the metric spins', async () => {
    const source = oneStepSource("return 'as run';").replace("metric: (outputs) =>", 'metric: (outputs) => { while (true) {} }, unused: (outputs) =>');
    const [result] = await makePool(1, 1000).run(source, [{ id: 'm', inputs: { question: 'q', doc: null } }], DEFAULT_SETTINGS);
    expect(result.error).toBe('case "m": timed out after 1 s in the metric');
  });

  it('rejects describe of a definition whose top level spins', async () => {
    const pool = makePool(1, 1000);
    await expect(pool.describe(oneStepSource('return 1;', 'while (true) {}'))).rejects.toThrow(
      // 1 s of limit and 1 s of preparation allowance (a definition is new to the worker describing it).
      new PipelineDefinitionError('pipeline.js: evaluating the definition timed out after 2 s (1 s + 1 s to compile the definition)'),
    );
    // The pool recovers.
    await expect(pool.describe(REFUND_POLICY_SOURCE)).resolves.toMatchObject({ name: 'refund-policy' });
  });

  it('turns a throwing step into that case\'s error and finishes the rest', async () => {
    const results = await makePool(2).run(TRAPPED_SOURCE, [question('a', 'crash', 1), question('b', 'fine', 2)], DEFAULT_SETTINGS);
    expect(results[0].error).toMatch(/^case "a": step "writer" threw: Error: writer crashed \(at pipeline\.js:\d+:\d+\)$/);
    expect(results[1].error).toBeUndefined();
  });

  it('fails only the case whose definition exhausts its worker\'s memory', async () => {
    const source = oneStepSource("if (inputs.question !== 'hoard') return 'as run'; const kept = []; while (true) kept.push(new Array(1e5).fill(kept.length));");
    const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 60_000, memoryLimitMb: 64 });
    pools.push(pool);
    // Four cases on one worker: batches of two, the hoarding case first in its batch.
    const cases = [
      { id: 'hog', inputs: { question: 'hoard', doc: null } },
      { id: 'fine', inputs: { question: 'q', doc: null } },
      { id: 'fine2', inputs: { question: 'q2', doc: null } },
      { id: 'fine3', inputs: { question: 'q3', doc: null } },
    ];
    const [hog, ...fine] = await pool.run(source, cases, DEFAULT_SETTINGS);
    expect(hog.error).toMatch(/^case "hog": the analysis worker stopped: .*memory/i);
    for (const result of fine) expect(result.error).toBeUndefined();
  });

  it('hears from a worker whose thread ran out of memory which case of its batch it was on, though it held the earlier answer back', async () => {
    const source = oneStepSource("if (inputs.question !== 'hoard') return 'as run'; const kept = []; while (true) kept.push(new Array(1e5).fill(kept.length));");
    const replies: WorkerReply[] = [];
    let worker: WorkerProcess | undefined;
    const death = new Promise<{ message: string; where?: WorkerWhere }>((resolve) => {
      worker = new WorkerProcess(analysisWorkerScript(), 64, {
        message: (reply) => {
          replies.push(reply);
          if (reply.type === 'ready') worker!.postMessage({ type: 'describe', job: 1, source, fileName: 'pipeline.js' });
          if (reply.type === 'described') {
            const cases = ['q', 'hoard', 'q2'].map((text, i) => ({ id: `c${i}`, inputs: { question: text, doc: null } }));
            worker!.postMessage({ type: 'run', job: 2, fileName: 'pipeline.js', cases, settings: DEFAULT_SETTINGS });
          }
        },
        death: (message, where) => resolve({ message, where }),
      });
    });
    try {
      const { message, where } = await death;
      expect(message).toMatch(/memory/i);
      expect(where?.case).toBe(1);
      // Case c0's answer was held to go with the next one's (WorkerReplyGroup), and was lost with the thread.
      expect(replies.filter((reply) => reply.type === 'result')).toEqual([]);
    } finally {
      await worker?.terminate();
    }
  });

  it.each([
    ['fills an array too large for the heap', 'return new Array(1e8).fill(7).length;'],
    ['pushes past the largest array', 'const kept = []; while (true) kept.push(1);'],
  ])('fails only the case whose step %s (a fatal V8 error ends only its worker process)', async (_, body) => {
    const source = oneStepSource(`if (inputs.question !== 'hoard') return 'as run'; ${body}`);
    const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 60_000, memoryLimitMb: 64 });
    pools.push(pool);
    const cases = ['q', 'hoard', 'q2'].map((text, i) => ({ id: `c${i}`, inputs: { question: text, doc: null } }));
    const [before, hog, after] = await pool.run(source, cases, DEFAULT_SETTINGS);
    expect(hog.error).toMatch(/^case "c1": the analysis worker stopped: .*(memory|largest size)/);
    expect(before.error).toBeUndefined();
    expect(after.error).toBeUndefined();
  });

  describe('charges work a case leaves behind to that case, never to the next one', () => {
    const cases = ['q', 'left', 'q2', 'q3'].map((text, i) => ({ id: `c${i}`, inputs: { question: text, doc: null } }));
    const run = (body: string) => {
      const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 1000 });
      pools.push(pool);
      return pool.run(oneStepSource(`if (inputs.question === 'left') { ${body} } return 'as run';`), cases, DEFAULT_SETTINGS);
    };
    const othersFine = (results: CaseResult[]) => {
      for (const index of [0, 2, 3]) expect(results[index].error).toBeUndefined();
    };

    it('a promise chain that never ends times out its own case', async () => {
      const results = await run('Promise.resolve().then(function again() { return Promise.resolve().then(again); });');
      expect(results[1].error).toBe('case "c1": timed out after 1 s in promise callbacks its steps left running');
      othersFine(results);
    });

    it('an unhandled rejection is its own case\'s error', async () => {
      const results = await run("Promise.reject(new Error('late'));");
      expect(results[1].error).toBe('case "c1": a promise it created was rejected and never handled: Error: late');
      othersFine(results);
    });

    it('an async run that spins after its first await times out its own case', async () => {
      const results = await run("(async () => { await 0; while (true) {} })();");
      expect(results[1].error).toBe('case "c1": timed out after 1 s in promise callbacks its steps left running');
      othersFine(results);
    });

    it('a definition whose top level leaves a rejection behind is refused', async () => {
      const pool = makePool(1, 1000);
      await expect(pool.describe(oneStepSource('return 1;', "Promise.reject(new Error('top'));"))).rejects.toThrow(
        new PipelineDefinitionError('pipeline.js: evaluating the definition: a promise it created was rejected and never handled: Error: top'),
      );
    });
  });

  it('closes without waiting on workers it already let go (a refused definition, then close)', async () => {
    const pool = new NodeAnalysisPool({ size: 2, timeoutMs: 60_000 });
    await expect(pool.describe('export default { name: "p" };')).rejects.toThrow(PipelineDefinitionError);
    await pool.close();
    await pool.close();
  });

  it('rejects a bad definition with the clear message, from describe and from run', async () => {
    const pool = makePool(1);
    const bad = 'const x = 1;\nexport default { name: "p", steps: [{ name: "retriever", inputs: [], cost: 1, run: 3 }], metric() { return 1 } };';
    await expect(pool.describe(bad)).rejects.toThrow(new PipelineDefinitionError('pipeline.js: step "retriever": run must be a function (inputs, noise, { llm }) => output'));
    await expect(pool.run('export default {', [], DEFAULT_SETTINGS)).rejects.toThrow(/^pipeline\.js:1:17: syntax error: Unexpected token$/);
    await expect(pool.describe('const s = "import(x)";\nexport default {};')).rejects.toThrow(/^pipeline\.js:1:12: the text "import\(" looks like a dynamic import/);
  });

  it('keeps host capabilities out of reach inside a worker too', async () => {
    const source = oneStepSource("return [typeof process, typeof require, typeof fetch, typeof postMessage, typeof globalThis.process].join();");
    const [result] = await makePool(1).run(source, [{ id: 'p', inputs: { question: 'q', doc: null } }], DEFAULT_SETTINGS);
    expect(result.factualOutputs).toEqual({ probe: 'undefined,undefined,undefined,undefined,undefined' });
  });

  it('settles waiting calls when closed, and refuses new ones', async () => {
    const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 60_000 });
    await pool.describe(TRAPPED_SOURCE);
    const pending = pool.run(TRAPPED_SOURCE, [question('spin', 'loop', 1), question('ok', 'fine', 2)], DEFAULT_SETTINGS);
    await pool.close();
    const results: CaseResult[] = await pending;
    for (const result of results) expect(result.error).toMatch(/the pool was closed$/);
    await expect(pool.describe(REFUND_POLICY_SOURCE)).rejects.toThrow('the pool was closed');
  });
});

describe('NodeAnalysisPool table games', () => {
  /** Three players; v by bitmask, a different table per game so each result is its own. */
  const game = (id: string, k: number): TableGame => ({ id, players: ['a', 'b', 'c'], values: Float64Array.from({ length: 8 }, (_, mask) => ((mask * (k + 3)) % 7) / 7) });

  it('analyses games in its workers, in batches, with the results the engine gives inline, in game order', async () => {
    const sent = vi.spyOn(WorkerProcess.prototype, 'postMessage');
    try {
      const games = Array.from({ length: 9 }, (_, k) => game(`g${k}`, k));
      const seen: number[] = [];
      const results = await makePool(2).runGames(games, DEFAULT_SETTINGS, (index) => seen.push(index));
      expect(results).toEqual(games.map((g) => analyzeTableGame(g, DEFAULT_SETTINGS)));
      expect([...seen].sort((x, y) => x - y)).toEqual(games.map((_, k) => k));
      const batches = sent.mock.calls.map(([request]) => request as WorkerRequest).filter((r) => r.type === 'games');
      // batchSizeFor(9 games, 2 workers) = 3: three batches, every game sent once.
      expect(batches.map((r) => r.games.length)).toEqual([3, 3, 3]);
    } finally {
      sent.mockRestore();
    }
  });

  it('gives a game the engine refuses an error result naming it, and the others their results', async () => {
    const bad: TableGame = { id: 'bad', players: ['a', 'b'], values: Float64Array.of(0, 1, 1) };
    const results = await makePool(1).runGames([game('g0', 0), bad, game('g2', 2)], DEFAULT_SETTINGS);
    expect(results[1].error).toBe('game "bad": 3 values for 2 players (expected 4)');
    expect(results[0]).toEqual(analyzeTableGame(game('g0', 0), DEFAULT_SETTINGS));
    expect(results[2]).toEqual(analyzeTableGame(game('g2', 2), DEFAULT_SETTINGS));
  });
});
