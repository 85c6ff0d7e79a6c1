import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import type { CaseResult } from '../engine/types.ts';
import { analyzeSourceCase } from './analyze-source.ts';
import { compilePipeline } from './compile.ts';
import { oneStepSource } from './testing/one-step.ts';

/** Run the probe step of oneStepSource(runBody) on one case and return the case's result. */
function runProbe(runBody: string, top = ''): CaseResult {
  return analyzeSourceCase(oneStepSource(runBody, top), { id: 'c1', inputs: { question: 'why?', doc: { text: 'x' } } }, DEFAULT_SETTINGS);
}

/** The probe's factual output, or its error: what user code managed to do. */
function probeOutcome(runBody: string, top = ''): { output?: unknown; error?: string } {
  const result = runProbe(runBody, top);
  return result.error !== undefined ? { error: result.error } : { output: result.factualOutputs?.probe };
}

describe('a definition cannot reach host capabilities', () => {
  it.each([
    ['fetch', "return fetch('https://example.com/steal')"],
    ['require', "return require('node:fs').readFileSync('/etc/passwd', 'utf8')"],
    ['setTimeout', 'setTimeout(() => {}, 1); return "scheduled"'],
  ])('calling %s fails with a message that names the missing host global', (name, body) => {
    const { error } = probeOutcome(body);
    expect(error).toMatch(/^case "c1": step "probe" threw: /);
    expect(error).toContain(`${name} is not a function`);
    expect(error).toContain('no access to the network, storage, timers');
    expect(error).toMatch(/pipeline\.js:\d+:\d+/);
  });

  it('sees no process, globalThis.process, window or document', () => {
    const { output } = probeOutcome(
      'return [typeof process, typeof globalThis.process, typeof window, typeof document, typeof console, typeof Buffer].join()',
    );
    expect(output).toBe('undefined,undefined,undefined,undefined,undefined,undefined');
  });

  it('reading process.env throws instead of returning the environment', () => {
    const { error } = probeOutcome('return process.env.HOME');
    expect(error).toMatch(/^case "c1": step "probe" threw: TypeError: Cannot read properties of undefined/);
  });

  it.each([
    ['a function literal', '(() => {}).constructor.constructor'],
    ['the inputs', 'inputs.constructor.constructor'],
    ['a nested input value', 'inputs.doc.constructor.constructor'],
    ['the noise facade', 'noise.constructor.constructor'],
    ['a noise method', 'noise.uniform.constructor'],
    ['an error thrown by the noise facade', '(() => { try { noise.int("x") } catch (e) { return e.constructor.constructor } })()'],
  ])('climbing to the Function constructor via %s does not reach the host realm', (_, path) => {
    const { output, error } = probeOutcome(`const F = ${path}; const got = F('return typeof process')(); return got;`);
    // Either the constructor is SES's inert one (throws), or it evaluates inside the compartment.
    if (error === undefined) expect(output).toBe('undefined');
    else expect(error).toContain('not a valid constructor');
    expect(output).not.toBe('object');
  });

  it('the noise facade exposes only the draws of docs/formats.md, "Pipeline definitions", frozen', () => {
    const { output } = probeOutcome(
      "return JSON.stringify([Object.keys(noise).sort(), Object.isFrozen(noise), Object.getPrototypeOf(noise) === Object.prototype, (() => { try { noise.extra = 1; return 'set' } catch (e) { return 'refused' } })()])",
    );
    expect(JSON.parse(output as string)).toEqual([
      ['bernoulli', 'categorical', 'choice', 'gumbel', 'int', 'normal', 'uniform'],
      true,
      true,
      'refused',
    ]);
  });

  it.each([
    ['Array.prototype', 'Array.prototype.includes = () => true; return "patched"'],
    ['Object.prototype', 'Object.prototype.polluted = "yes"; return "patched"'],
    ['Object.prototype via __proto__', '({}).__proto__.polluted = "yes"; return "patched"'],
    ['JSON', 'JSON.parse = () => 1; return "patched"'],
    ['Math', 'Math.max = () => 0; return "patched"'],
  ])('mutating %s fails and leaves the host untouched', (_, body) => {
    const { error } = probeOutcome(body);
    expect(error).toMatch(/^case "c1": step "probe" threw: TypeError: (Cannot (add|assign to read only) property|.*not extensible)/);
    expect([1, 2].includes(3)).toBe(false);
    expect((({}) as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse('2')).toBe(2);
    expect(Math.max(1, 2)).toBe(2);
  });

  it('cannot mutate its inputs (they are frozen copies, so the engine cache stays intact)', () => {
    const { error } = probeOutcome('inputs.doc.text = "changed"; return "mutated"');
    expect(error).toMatch(/^case "c1": step "probe" threw: TypeError: Cannot assign to read only property 'text'/);
  });

  it('receives a frozen inputs record', () => {
    const { error } = probeOutcome('inputs.question = "changed"; return "mutated"');
    expect(error).toMatch(/^case "c1": step "probe" threw: TypeError: Cannot assign to read only property 'question'/);
  });

  it('the metric cannot mutate the case it is given', () => {
    const source = oneStepSource('return "as run"').replace(
      "metric: (outputs) =>",
      "metric: (outputs, inputs) => { inputs.doc.text = 'changed'; return 0; }, unused: (outputs) =>",
    );
    const caseDef = { id: 'c1', inputs: { question: 'why?', doc: { text: 'original' } } };
    const result = analyzeSourceCase(source, caseDef, DEFAULT_SETTINGS);
    expect(result.error).toMatch(/^case "c1": the metric threw: TypeError: Cannot assign to read only property 'text'/);
    expect(caseDef.inputs.doc.text).toBe('original');
  });

  it('cannot keep state on globalThis', () => {
    const { error } = probeOutcome('globalThis.counter = 1; return "kept"');
    expect(error).toMatch(/^case "c1": step "probe" threw: TypeError: Cannot add property counter/);
  });
});

describe('a definition has no ambient randomness or clock', () => {
  it('Math.random in a step names the alternative', () => {
    const { error } = probeOutcome('return Math.random()');
    expect(error).toContain('step "probe" threw: Error: Math.random is not available in a pipeline definition: draw from noise');
  });

  it('globalThis.Math.random is the same refusal', () => {
    const { error } = probeOutcome('return globalThis.Math.random()');
    expect(error).toContain('Math.random is not available');
  });

  it.each([
    ['Date.now()', 'return Date.now()'],
    ['new Date()', 'return new Date().toISOString()'],
  ])('%s in a step says the clock is unavailable', (_, body) => {
    const { error } = probeOutcome(body);
    expect(error).toContain('step "probe" threw: Error: the clock (Date.now(), new Date() without arguments) is not available');
  });

  it('a fixed date is still fine', () => {
    expect(probeOutcome('return new Date(0).toISOString()').output).toBe('1970-01-01T00:00:00.000Z');
  });

  it('Math.random at the top level fails compilation with line and column', () => {
    expect(() => compilePipeline(oneStepSource('return 1', 'const jitter = Math.random();'))).toThrow(
      /^pipeline\.js: evaluating the definition failed: Error: Math\.random is not available .* \(at pipeline\.js:1:21\)$/,
    );
  });
});

describe('a definition cannot take memory outside the worker\'s heap limit', () => {
  it.each([
    ['ArrayBuffer', 'return new ArrayBuffer(1e9).byteLength', 'ArrayBuffer'],
    ['a typed array', 'return new Float64Array(1e8).length', 'Float64Array'],
    ['TextEncoder (it hands out a Uint8Array)', 'return new TextEncoder().encode("x").buffer.constructor.name', 'TextEncoder'],
    ['SharedArrayBuffer', 'return new SharedArrayBuffer(8).byteLength', 'SharedArrayBuffer'],
  ])('%s is refused with a message naming what and saying why', (_, body, refused) => {
    const { error } = probeOutcome(body);
    expect(error).toMatch(/^case "c1": step "probe" threw: TypeError: \w+ is not available in a pipeline definition: its memory is outside the worker's memory limit/);
    expect(error).toContain(`TypeError: ${refused} is not available`);
  });
});

describe('the sandbox bounds and refreshes what steps return', () => {
  it('a step output nested past the limit is that step\'s error, naming the place', () => {
    const { error } = probeOutcome('let o = 1; for (let i = 0; i < 2500; i++) o = [o]; return o;');
    expect(error).toMatch(/^case "c1": step "probe" threw: .*output(\[0\])+ is nested more than 200 levels deep \(at most 200\)$/);
  });

  it('an output that wraps an earlier deep output still counts the full depth', () => {
    const source = `export default {
      name: 'deepening',
      steps: ['a', 'b', 'c'].map((name, i) => ({
        name, inputs: i === 0 ? ['x'] : [['a', 'b', 'c'][i - 1]], cost: 1,
        run: (inputs) => { let o = i === 0 ? { leaf: Array.from({ length: 40 }, (_, k) => k) } : inputs[['a', 'b', 'c'][i - 1]]; for (let d = 0; d < 90; d++) o = { d: o }; return o; },
        fixes: [{ name: 'f', cost: 1, run: () => 'flat' }],
      })),
      metric: () => 0,
    };`;
    const result = analyzeSourceCase(source, { id: 'c1', inputs: { x: 1 } }, DEFAULT_SETTINGS);
    expect(result.error).toMatch(/^case "c1": step "c" threw: .* is nested more than 200 levels deep/);
  });

  it('an output frozen only at its top level is copied again when its nested state changed', () => {
    const source = `
      const shared = Object.freeze({ inner: { v: 0 }, padding: Array.from({ length: 40 }, (_, k) => k) });
      export default {
        name: 'stale',
        steps: [{ name: 'a', inputs: ['x'], cost: 1,
          run: () => { shared.inner.v = 0; return shared; },
          fixes: [{ name: 'f', cost: 1, run: () => { shared.inner.v = 1; return shared; } }] }],
        metric: (outputs) => outputs.a.inner.v,
      };`;
    const result = analyzeSourceCase(source, { id: 'c1', inputs: { x: 1 } }, DEFAULT_SETTINGS);
    expect(result.error).toBeUndefined();
    expect(result.vAll).toBe(1);
    expect(result.shapley).toEqual({ a: 1 });
  });
});
