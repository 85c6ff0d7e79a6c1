/**
 * Hostile definitions: a regression suite of short definitions that each tried to
 * escape the sandbox, crash the run, blame an innocent case or skew the numbers. Every definition
 * has three cases, and only the middle one ("bad") runs the attack: it must end as that case's own
 * clear error (or a harmless value), and the two others must be analysed as if nothing happened.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import type { CaseDef, CaseResult } from '../engine/types.ts';
import { NodeAnalysisPool } from '../pool/node/analysis-pool.ts';
import { analyzeSourceCase } from '../sandbox/analyze-source.ts';
import { compilePipeline } from '../sandbox/compile.ts';

/** A one-step definition: the step runs `attack` on the case "bad" and is fixable on every case. */
function hostile(attack: string, top = '', metric = "(outputs) => (outputs.a === 'fixed' ? 1 : 0)"): string {
  return `${top}
export default {
  name: 'hostile',
  steps: [{ name: 'a', inputs: ['x'], cost: 1,
    run: (inputs, noise) => { if (inputs.x === 'bad') { ${attack} } return 'as run'; },
    fixes: [{ name: 'f', cost: 1, run: () => 'fixed' }] }],
  metric: ${metric},
};`;
}

const CASES: CaseDef[] = [
  { id: 'before', inputs: { x: 'q1' } },
  { id: 'bad', inputs: { x: 'bad' } },
  { id: 'after', inputs: { x: 'q2' } },
];

/** The bad case ends as an error matching `error`, or with a factual output matching `output`. */
type Expected = { error: RegExp } | { output: unknown };

function check(results: CaseResult[], expected: Expected): void {
  const [before, bad, after] = results;
  for (const innocent of [before, after]) {
    expect(innocent.error).toBeUndefined();
    expect(innocent.shapley).toEqual({ a: 1 });
  }
  if ('error' in expected) expect(bad.error).toMatch(expected.error);
  else {
    expect(bad.error).toBeUndefined();
    expect(bad.factualOutputs?.a).toEqual(expected.output);
  }
}

const threw = (what: string) => new RegExp(`^case "bad": step "a" threw: ${what}`);

/** Attacks analysed in this process (none of them can hang or exhaust memory). */
const IN_PROCESS: [string, string, Expected][] = [
  ['calls fetch', "return fetch('https://example.com');", { error: threw('TypeError: fetch is not a function: pipeline definitions have no access') }],
  ['calls require', "return require('node:fs').readFileSync('/etc/passwd');", { error: threw('TypeError: require is not a function') }],
  ['reads process.env', 'return process.env.HOME;', { error: threw('TypeError: Cannot read properties of undefined') }],
  ['looks for host globals', 'return [typeof process, typeof window, typeof document, typeof console, typeof Buffer, typeof setTimeout].join();', { output: 'undefined,undefined,undefined,undefined,undefined,undefined' }],
  ['keeps state on globalThis', 'globalThis.stolen = 1; return 1;', { error: threw('TypeError: Cannot add property stolen') }],
  ['pollutes Object.prototype', "Object.prototype.polluted = 'yes'; return 1;", { error: threw('TypeError: Cannot add property polluted') }],
  ['patches Array.prototype', 'Array.prototype.includes = () => true; return 1;', { error: threw('TypeError: Cannot assign to read only property') }],
  ['climbs to Function through a literal', "return (() => {}).constructor('return typeof process')();", { error: /not a valid constructor|undefined/ }],
  ['climbs to Function through an error', "try { null.x } catch (e) { return e.constructor.constructor('return typeof process')(); }", { error: /not a valid constructor|undefined/ }],
  ['draws from Math.random', 'return Math.random();', { error: threw('Error: Math.random is not available') }],
  ['reads the clock with Date.now', 'return Date.now();', { error: threw('Error: the clock') }],
  ['reads the clock with new Date()', 'return new Date().getTime();', { error: threw('Error: the clock') }],
  ['reads the local hour (time zone)', 'return new Date(Date.UTC(2026, 0, 1, 23)).getHours();', { output: 23 }],
  ['allocates an ArrayBuffer', 'return new ArrayBuffer(3e9).byteLength;', { error: threw('TypeError: ArrayBuffer is not available') }],
  ['allocates a typed array', 'return new Float64Array(4e8).length;', { error: threw('TypeError: Float64Array is not available') }],
  ['gets a Uint8Array from TextEncoder', "return new TextEncoder().encode('x').length;", { error: threw('TypeError: TextEncoder is not available') }],
  ['returns a function', 'return () => 1;', { error: threw('its output is not plain data: output is a function') }],
  ['returns a symbol', "return Symbol('s');", { error: threw('its output is not plain data: output is a symbol') }],
  ['returns a bigint', 'return 10n;', { error: threw('its output is not plain data: output is a bigint') }],
  ['returns a cycle', 'const o = {}; o.self = o; return o;', { error: threw('its output is not plain data: output.self refers back to itself') }],
  ['returns a Promise', 'return Promise.resolve(1);', { error: threw('its output is not plain data: output is a Promise, not a plain object or array \\(runs must be synchronous') }],
  ['returns a thenable', "return { then(resolve) { resolve('late'); } };", { error: threw('its output is not plain data: output.then is a function') }],
  ['returns a Map', 'return new Map([[1, 2]]);', { error: threw('its output is not plain data: output is a Map') }],
  ['returns data nested 2 500 deep', 'let o = 1; for (let i = 0; i < 2500; i++) o = [o]; return o;', { error: threw('its output is not plain data: output(\\[0\\])+ is nested more than 200 levels deep') }],
  ['throws a 20-million-character message', "throw new Error('m'.repeat(2e7));", { error: /more characters cut\) \(at pipeline\.js:\d+:\d+\)$/ }],
  ['throws a string', "throw 'plain string';", { error: threw('threw a non-error value: plain string') }],
  ['throws an object whose getters throw', "throw { get message() { throw new Error('no'); }, toString() { throw new Error('no'); } };", { error: threw('threw a value that cannot be described') }],
  ['throws a Proxy that traps everything', "throw new Proxy({}, { get() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } });", { error: threw('threw a value that cannot be described') }],
  ['recurses until the stack overflows', 'const f = (n) => f(n + 1) + 1; return f(0);', { error: threw('RangeError: Maximum call stack size exceeded') }],
  ['mutates its inputs', "inputs.x = 'changed'; return 1;", { error: threw("TypeError: Cannot assign to read only property 'x'") }],
  ['puts NUL in a noise key', "return noise.uniform('a\\u0000b');", { error: threw('TypeError: noise key must not contain the NUL character') }],
  ['names a categorical option __proto__', "return noise.categorical({ __proto__: 1, constructor: 1 }, 'k') === 'x' ? 1 : 'as run';", { output: 'as run' }],
  ['returns an object frozen only at its top level, then changes it', "shared.inner.v++; return shared.inner.v > 0 ? 'fixed' : 1;", { output: 'fixed' }],
  ['returns 5 million characters (kept as a note, not copied to the host)', "return 'x'.repeat(5e6);", { output: '[output cut: more than 100000 characters of JSON; results keep smaller outputs only]' }],
  ['returns a million small objects', 'return Array.from({ length: 1e6 }, (_, i) => ({ i }));', { output: '[output cut: more than 100000 characters of JSON; results keep smaller outputs only]' }],
  ['returns an object with a getter', "return { get v() { return 'read once'; } };", { output: { v: 'read once' } }],
];

describe('hostile definitions, analysed in process', () => {
  it.each(IN_PROCESS)('a step that %s', (_, attack, expected) => {
    const top = "const shared = Object.freeze({ inner: { v: 0 }, padding: Array.from({ length: 40 }, (_, k) => k) });";
    const results = CASES.map((c) => analyzeSourceCase(hostile(attack, top), c, DEFAULT_SETTINGS));
    check(results, expected);
  });

  it.each([
    ['returns NaN', 'NaN', /^case "bad": the metric returned NaN/],
    ['returns a string', "'1'", /^case "bad": the metric returned a string/],
    ['throws', "(() => { throw new Error('metric broke'); })()", /^case "bad": the metric threw: Error: metric broke/],
  ])('a metric that %s on one case', (_, value, error) => {
    const metric = `(outputs, inputs) => (inputs.x === 'bad' ? ${value} : outputs.a === 'fixed' ? 1 : 0)`;
    const results = CASES.map((c) => analyzeSourceCase(hostile('return 1;', '', metric), c, DEFAULT_SETTINGS));
    check(results, { error });
  });
});

describe('hostile definitions, refused before any case runs', () => {
  it.each([
    ['a dynamic import', hostile("return import('node:fs');"), /looks like a dynamic import|import\(\) is not allowed/],
    ['a direct eval', hostile("return eval('1');"), /looks like a direct eval/],
    ['an import declaration', `import fs from 'node:fs';\n${hostile('return 1;')}`, /imports are not allowed/],
    ['Math.random at the top level', hostile('return 1;', 'const r = Math.random();'), /Math\.random is not available/],
    ['a step name with an escape code', hostile('return 1;').replace("name: 'a'", "name: 'a\\u001b[2J'"), /contains the control character U\+001B/],
    ['a step name of 20 million characters', hostile('return 1;').replace("name: 'a'", "name: 'a'.repeat(2e7)"), /is 20000000 characters long \(at most 200\)/],
    ['two steps whose names differ only after a NUL', hostile('return 1;').replace("name: 'a'", "name: 'a\\u0000b'"), /contains the control character U\+0000/],
  ])('%s', (_, source, message) => {
    expect(() => compilePipeline(source)).toThrow(message);
  });
});

describe('hostile definitions, in the worker pool', () => {
  const pool = new NodeAnalysisPool({ size: 2, timeoutMs: 1500 });
  afterAll(() => pool.close());

  // The bad case may be the first its worker runs of the definition (then it had the compile allowance, and says so).
  const limit = String.raw`timed out after (1\.5 s|2\.5 s \(1\.5 s \+ 1 s to compile the definition\))`;
  it.each([
    ['spins forever', 'while (true) {}', new RegExp(`^case "bad": ${limit} in step "a"$`)],
    ['leaves a promise chain spinning', 'Promise.resolve().then(function again() { return Promise.resolve().then(again); });', new RegExp(`^case "bad": ${limit} in promise callbacks its steps left running$`)],
    ['leaves a rejection unhandled', "Promise.reject(new Error('late'));", /^case "bad": a promise it created was rejected and never handled: Error: late$/],
    ['returns from an async run that spins later', '(async () => { await null; while (true) {} })(); return 1;', new RegExp(`^case "bad": ${limit} in promise callbacks its steps left running$`)],
  ])('a step that %s fails only its own case', async (_, attack, error) => {
    const results = await pool.run(hostile(attack), CASES, DEFAULT_SETTINGS);
    check(results, { error });
  }, 60_000);

  it.each([
    ['hoards memory until the heap limit', 'const kept = []; while (true) kept.push(new Array(1e5).fill(kept.length));', /^case "bad": the analysis worker stopped: .*memory/i],
    ['fills an array too large for the heap (a fatal V8 error)', 'return new Array(1e8).fill(7).length;', /^case "bad": the analysis worker stopped: .*(memory|largest size)/i],
  ])('a step that %s fails only its own case (64 MB heap)', async (_, attack, error) => {
    const roomy = new NodeAnalysisPool({ size: 1, timeoutMs: 60_000, memoryLimitMb: 64 });
    try {
      check(await roomy.run(hostile(attack), CASES, DEFAULT_SETTINGS), { error });
    } finally {
      await roomy.close();
    }
  }, 90_000);
});
