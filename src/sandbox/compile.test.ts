import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../engine/index.ts';
import type { Noise } from '../engine/types.ts';
import { compileChecked } from './analyze-source.ts';
import { compilePipeline, preparePipeline } from './compile.ts';
import { oneStepSource } from './testing/one-step.ts';
import { REFUND_POLICY_SOURCE } from './testing/refund-policy.ts';
import { thrownBy } from '../engine/testing/thrown.ts';

/** A stand-in for the engine's Noise that records which draws user code asked for. */
function recordingNoise(log: string[]): Noise {
  return {
    uniform: (key) => (log.push(`uniform ${key}`), 0.25),
    normal: (key) => (log.push(`normal ${key}`), -1),
    gumbel: (key, option) => (log.push(`gumbel ${key} ${option}`), 0.5),
    categorical: (logits, key) => (log.push(`categorical ${Object.keys(logits).join('|')} ${key}`), Object.keys(logits)[0]),
    bernoulli: (p, key) => (log.push(`bernoulli ${p} ${key}`), true),
    int: (n, key) => (log.push(`int ${n} ${key}`), n - 1),
    choice: (items, key) => (log.push(`choice ${items.length} ${key}`), items[0]),
  };
}

const definitionError = (run: () => unknown): string => thrownBy(run, DefinitionError).message;

describe('compilePipeline: a well-behaved definition', () => {
  it('compiles to the engine shape, with helpers defined before the export', () => {
    const def = compilePipeline(REFUND_POLICY_SOURCE);
    expect(def.name).toBe('refund-policy');
    expect(def.steps.map((s) => [s.name, s.inputs, s.cost, s.fixes.map((f) => [f.name, f.cost])])).toEqual([
      ['planner', ['question'], 1, [['date constraint', 1]]],
      ['retriever', ['planner'], 2, [['reranker', 4]]],
      ['writer', ['planner', 'retriever'], 3, [['hedge when unsure', 3]]],
      ['reviewer', ['writer'], 1, [['resolve hedges', 1]]],
    ]);
    const writer = def.steps[2];
    const noise = recordingNoise([]);
    expect(writer.run({ planner: 'plan', retriever: 'stale' }, noise)).toBe('wrong');
    expect(writer.fixes[0].run({ planner: 'plan', retriever: 'stale' }, noise)).toBe('hedged');
    expect(def.metric({ reviewer: 'ok' }, {})).toBe(1);
  });

  it('copies the cases out as plain, unfrozen host data', () => {
    const def = compilePipeline(REFUND_POLICY_SOURCE);
    expect(def.cases).toEqual([
      { id: 'q1', inputs: { question: 'Can I get a refund after 30 days?' }, seed: 1 },
      { id: 'q2', inputs: { question: 'Is shipping refunded?' }, seed: 2 },
    ]);
    expect(Object.isFrozen(def.cases![0].inputs)).toBe(false);
    expect(structuredClone(def.cases)).toEqual(def.cases);
  });

  it('accepts any safe integer seed for its own cases, as a trace does', () => {
    const source = "export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {}, fixes: [{ name: 'f', cost: 1, run() {} }] }], metric() { return 1 }, cases: [{ id: 'a', inputs: {}, seed: -3 }, { id: 'b', inputs: {}, seed: 0 }] };";
    expect(compilePipeline(source).cases?.map((c) => c.seed)).toEqual([-3, 0]);
  });

  it('forwards every draw of the facade to the engine noise of the current call', () => {
    const log: string[] = [];
    const def = compilePipeline(
      oneStepSource(
        "return [noise.uniform('u'), noise.normal(), noise.gumbel('g', 'a'), noise.categorical({ a: 1, b: 2 }, 'c'), noise.bernoulli(0.3), noise.int(4, 'i'), noise.choice(['x', 'y'], 'ch')];",
      ),
    );
    expect(def.steps[0].run({ question: 'q', doc: null }, recordingNoise(log))).toEqual([0.25, -1, 0.5, 'a', true, 3, 'x']);
    expect(log).toEqual(['uniform u', 'normal undefined', 'gumbel g a', 'categorical a|b c', 'bernoulli 0.3 undefined', 'int 4 i', 'choice 2 ch']);
  });

  it('returns frozen plain copies of outputs', () => {
    const def = compilePipeline(oneStepSource('return { list: [1, { deep: true }], label: inputs.question };'));
    const output = def.steps[0].run({ question: 'q', doc: null }, recordingNoise([])) as { list: unknown[] };
    expect(output).toEqual({ list: [1, { deep: true }], label: 'q' });
    expect(Object.isFrozen(output.list[1])).toBe(true);
  });

  it('gives every instance its own top-level state', () => {
    const source = oneStepSource('calls += 1; return calls;', 'let calls = 0;');
    const prepared = preparePipeline(source);
    const first = prepared.instantiate();
    const second = prepared.instantiate();
    const noise = recordingNoise([]);
    expect(first.steps[0].run({}, noise)).toBe(1);
    expect(first.steps[0].run({}, noise)).toBe(2);
    expect(second.steps[0].run({}, noise)).toBe(1);
  });
});

describe('compilePipeline: errors name the place', () => {
  it('reports a syntax error with line and column of the user file', () => {
    const source = 'const a = 1;\nconst b = {\n  c: 2 3,\n};\nexport default {};\n';
    expect(definitionError(() => compilePipeline(source, 'my-pipeline.js'))).toBe('my-pipeline.js:3:8: syntax error: Unexpected token');
  });

  it('reports top-level await as a syntax error (definitions are synchronous)', () => {
    expect(definitionError(() => compilePipeline('const x = await 1;\nexport default {};'))).toBe(
      'pipeline.js:1:11: top-level await is not allowed: a definition is evaluated synchronously',
    );
  });

  it.each([
    ['import(...) in code', "const m = () => import('fs');\nexport default {};", /^pipeline\.js:1:17: import\(\) is not allowed/],
    ['"import(" in a string', "const s = 'see import(x)';\nexport default {};", /^pipeline\.js:1:16: the text "import\(" looks like a dynamic import, which the sandbox rejects anywhere in the file, strings and comments included/],
    ['"eval(" in a comment', "// never eval(x)\nexport default {};", /^pipeline\.js:1:10: the text "eval\(" looks like a direct eval call/],
    ['"<!--" in a string', "\n\nconst html = '<!-- note';\nexport default {};", /^pipeline\.js:3:15: the text "<!--" looks like an HTML comment marker/],
    ['import.meta', 'const u = import.meta.url;\nexport default {};', /^pipeline\.js:1:11: import\.meta is not allowed/],
    ['an import declaration', "import fs from 'fs';\nexport default {};", /^pipeline\.js:1:1: imports are not allowed/],
    ['a named export', 'export const x = 1;\nexport default {};', /^pipeline\.js:1:1: only one `export default/],
    ['no default export', 'const x = 1;', /^pipeline\.js: no `export default/],
  ])('rejects %s', (_, source, message) => {
    expect(definitionError(() => compilePipeline(source))).toMatch(message);
  });

  it.each([
    ['export default 42;', 'pipeline.js: export default must be an object { name, steps, metric }'],
    ["export default { steps: [], metric() { return 1 } };", 'pipeline.js: name must be a non-empty string'],
    ["export default { name: 'p', steps: [], metric() { return 1 } };", 'pipeline.js: steps must be a non-empty array'],
    ["export default { name: 'p', steps: [7], metric() { return 1 } };", 'pipeline.js: steps[0] must be an object'],
    [
      "export default { name: 'p', steps: [{ name: 'retriever', inputs: [], cost: 1, run: 'fetch' }], metric() { return 1 } };",
      'pipeline.js: step "retriever": run must be a function',
    ],
    [
      "export default { name: 'p', steps: [{ name: 'retriever', inputs: 'q', cost: 1, run() {} }], metric() { return 1 } };",
      'pipeline.js: step "retriever": inputs must be an array of names',
    ],
    [
      "export default { name: 'p', steps: [{ name: 'retriever', inputs: [], cost: -1, run() {} }], metric() { return 1 } };",
      'pipeline.js: step "retriever": cost must be a non-negative number',
    ],
    [
      "export default { name: 'p', steps: [{ name: 'retriever', inputs: [], run() {} }], metric() { return 1 } };",
      'pipeline.js: step "retriever": cost is missing',
    ],
    [
      "export default { name: 'p', steps: [{ name: 'retriever', inputs: [], cost: 1, run() {}, fixes: [{ name: 'reranker', run() {} }] }], metric() { return 1 } };",
      'pipeline.js: step "retriever": fix "reranker": cost is missing',
    ],
    [
      "export default { name: 'p', steps: [{ name: 'retriever', inputs: [], cost: 1, run() {}, fixes: [{ name: 'reranker', cost: 1 }] }], metric() { return 1 } };",
      'pipeline.js: step "retriever": fix "reranker": run must be a function',
    ],
    ["export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {} }] };", 'pipeline.js: metric must be a function'],
    [
      "export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {} }], metric() {}, range: [1, 0] };",
      'pipeline.js: range must be [low, high]',
    ],
    [
      "export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {} }], metric() {}, cases: [{ id: 'a', inputs: {} }, { id: 'a', inputs: {} }] };",
      'pipeline.js: cases[1].id: duplicate case id "a" (also cases[0])',
    ],
    [
      "export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {} }], metric() {}, cases: [{ id: 'a', inputs: {} }, { id: 'b' }] };",
      'pipeline.js: cases[1].inputs: missing (expected an object)',
    ],
    [
      "export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {} }], metric() {}, cases: [{ id: 'a', inputs: {}, seeds: 3 }] };",
      'pipeline.js: cases[0].seeds: unknown field (expected one of: id, inputs, seed, observed, outputs, score)',
    ],
    [
      "export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {} }], metric() {}, cases: { a: {} } };",
      'pipeline.js: cases: expected an array, got an object',
    ],
    [
      "export default { name: 'p', steps: [{ name: 's', inputs: [], cost: 1, run() {} }], metric() {}, cases: [{ id: 'a', inputs: {}, seed: 1.5 }] };",
      'pipeline.js: cases[0].seed: expected an integer, got 1.5',
    ],
  ])('checks the shape: %s', (source, message) => {
    expect(definitionError(() => compilePipeline(source))).toContain(message);
  });

  it('adds the engine checks (order of steps, fixes) with the file name', () => {
    const forward = `export default { name: 'p', metric() { return 1 }, steps: [
      { name: 'a', inputs: ['b'], cost: 1, run() {}, fixes: [{ name: 'f', cost: 1, run() {} }] },
      { name: 'b', inputs: [], cost: 1, run() {}, fixes: [{ name: 'f', cost: 1, run() {} }] }] };`;
    expect(definitionError(() => compileChecked(forward))).toMatch(/^pipeline\.js: step "a" takes input "b", a later step/);
    const noFix = "export default { name: 'p', metric() { return 1 }, steps: [{ name: 'a', inputs: [], cost: 1, run() {} }] };";
    expect(definitionError(() => compileChecked(noFix))).toBe('pipeline.js: step "a" has no fixes (each step needs at least one fix)');
  });

  it('reports a value of the wrong kind by its kind (an array as a step, an object as inputs)', () => {
    const source = "export default { name: 'p', metric() { return 1 }, steps: [STEP] };";
    expect(definitionError(() => compilePipeline(source.replace('STEP', "[{ name: 's' }]")))).toBe(
      'pipeline.js: steps[0] must be an object { name, inputs, cost, run, fixes }',
    );
    expect(definitionError(() => compilePipeline(source.replace('STEP', "{ name: 's', inputs: { length: 0 }, cost: 1, run() {} }")))).toBe(
      'pipeline.js: step "s": inputs must be an array of names (case inputs or earlier steps)',
    );
  });

  it('checks names, fixes and models by the engine rules, with the file name', () => {
    const withStep = (step: string, extra = '') => `export default { name: 'p', metric() { return 1 }, steps: [${step}]${extra} };`;
    expect(definitionError(() => compilePipeline(withStep(`{ name: '${'x'.repeat(201)}', inputs: [], cost: 1, run() {} }`)))).toBe(
      'pipeline.js: steps[0]: name is 201 characters long (at most 200)',
    );
    expect(definitionError(() => compilePipeline(withStep("{ name: 's', inputs: [], cost: 1, run() {}, fixes: [{ name: 'a\\u0007', cost: 1, run() {} }] }")))).toMatch(
      /^pipeline\.js: step "s": fixes\[0\]: name "a\\u0007" contains the control character U\+0007/,
    );
    expect(definitionError(() => compilePipeline(withStep("{ name: 's', inputs: [], cost: 1, run() {}, fixes: 'f' }")))).toBe(
      'pipeline.js: step "s": fixes must be an array of { name, cost, run }',
    );
    expect(definitionError(() => compilePipeline(withStep("{ name: 's', inputs: [], cost: 1, run() {}, fixes: [{ name: 'f', cost: 1, run() {} }] }", ', models: []')))).toBe(
      'pipeline.js: models must be an object { alias: "model id" }',
    );
  });

  it('reports an error thrown at the top level with its line and column', () => {
    const source = "const table = {};\nconst broken = table.missing.field;\nexport default {};";
    expect(definitionError(() => compilePipeline(source))).toBe(
      "pipeline.js: evaluating the definition failed: TypeError: Cannot read properties of undefined (reading 'field') (at pipeline.js:2:30)",
    );
  });
});

describe('compiled runs: errors from user code', () => {
  const noise = recordingNoise([]);

  it('point at the user line and column, also on the export line', () => {
    const def = compilePipeline(
      "export default { name: 'p', metric() { return 1 }, steps: [{ name: 's', inputs: [], cost: 1, run() { throw new RangeError('too far') }, fixes: [{ name: 'f', cost: 1, run() {} }] }] };",
    );
    expect(() => def.steps[0].run({}, noise)).toThrow(/^RangeError: too far \(at pipeline\.js:1:108\)$/);
  });

  it('describe thrown non-errors', () => {
    const def = compilePipeline(oneStepSource("throw 'plain text';"));
    expect(() => def.steps[0].run({}, noise)).toThrow('threw a non-error value: plain text');
  });

  it('name the path of an output that is not plain data', () => {
    const notPlain = (where: string) => `its output is not plain data: output${where}`;
    const cases: [string, string][] = [
      ['return { ok: [1, () => 2] };', notPlain('.ok[1] is a function')],
      ['return new Map();', notPlain(' is a Map, not a plain object or array')],
      ['const o = {}; o.self = o; return o;', notPlain('.self refers back to itself')],
      ['return 10n;', notPlain(' is a bigint')],
    ];
    for (const [body, message] of cases) {
      const def = compilePipeline(oneStepSource(body));
      expect(() => def.steps[0].run({}, noise)).toThrow(message);
    }
    const asyncDef = compilePipeline(oneStepSource('return 1;').replace('run: (inputs, noise) =>', 'run: async (inputs, noise) =>'));
    expect(() => asyncDef.steps[0].run({}, noise)).toThrow('output is a Promise, not a plain object or array (runs must be synchronous: no async functions)');
  });

  it('refuse noise outside a step call, even a facade kept from an earlier call', () => {
    const source = oneStepSource('kept = noise; return 1;', 'let kept;').replace(
      "metric: (outputs) =>",
      'metric: (outputs) => kept.uniform(), unused: (outputs) =>',
    );
    const def = compilePipeline(source);
    def.steps[0].run({}, noise);
    expect(() => def.metric({}, {})).toThrow('Error: noise is only available while a step runs');
  });

  it('check the arguments of noise draws before they reach the engine', () => {
    const def = compilePipeline(oneStepSource("return noise.categorical(['a', 'b']);"));
    expect(() => def.steps[0].run({}, noise)).toThrow('TypeError: categorical logits must be an object { option: logit }, got an array');
    const badKey = compilePipeline(oneStepSource('return noise.uniform(7);'));
    expect(() => badKey.steps[0].run({}, noise)).toThrow('TypeError: noise key must be a string, got number');
  });
});
