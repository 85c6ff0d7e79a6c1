import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import type { Noise } from '../engine/types.ts';
import { analyzeSourceCase, describeSource } from './analyze-source.ts';
import { compilePipeline, preparePipeline } from './compile.ts';
import { DefinitionError } from './definition-error.ts';
import { prepareSource } from './prepare-source.ts';

const PIPELINE = `name: 'built',
  steps: [{ name: 'a', inputs: ['x'], cost: 1, run: ({ x }) => (x % 2 ? 'bad' : 'ok'), fixes: [{ name: 'f', cost: 1, run: () => 'ok' }] }],
  metric: (outputs) => (outputs.a === 'ok' ? 1 : 0),`;

/** A definition whose top level builds its cases in a loop, then exports them by name. */
const BUILT = `const make = (i) => ({ id: 'c' + i, inputs: { x: i } });
const cases = [];
for (let i = 0; i < 5; i++) {
  cases.push(make(i));
}
export default {
  ${PIPELINE}
  cases,
};`;

const NO_NOISE = {} as Noise;

const rewritten = (source: string) => prepareSource(source, 'pipeline.js').body.includes('get cases()');

describe('a definition whose top level builds its cases', () => {
  it('builds them only when read: the building statements become functions the cases getter calls, lines unchanged', () => {
    const { body } = prepareSource(BUILT, 'pipeline.js');
    expect(body).toContain('let cases; function __agentblame_cases_0__() { cases = ([]); }');
    expect(body).toContain('function __agentblame_cases_1__() { for (let i = 0; i < 5; i++) {');
    expect(body).toContain('get cases() { __agentblame_cases_0__(); __agentblame_cases_1__(); return cases; }');
    expect(body.split('\n')).toHaveLength(BUILT.split('\n').length);
  });

  it('later instances do not run the building statements (seen through a log they fill, which the step reports)', () => {
    // Filling another object by a method call is the one side effect the rewrite cannot see
    // (docs/security.md says not to); here it makes the skipped work visible.
    const source = BUILT.replace('const cases = [];', 'const log = [];\nconst cases = [];')
      .replace('cases.push(make(i));', 'cases.push(make(i)); log.push(i);')
      .replace("run: ({ x }) => (x % 2 ? 'bad' : 'ok')", 'run: () => String(log.length)');
    expect(rewritten(source)).toBe(true);
    const prepared = preparePipeline(source);
    const first = prepared.instantiate();
    expect(first.cases).toHaveLength(5);
    expect(first.steps[0].run({}, NO_NOISE)).toBe('5');
    const later = prepared.instantiate({ cases: false });
    expect(later.cases).toBeUndefined();
    expect(later.steps[0].run({}, NO_NOISE)).toBe('0');
  });

  it('describes and analyses exactly as written', () => {
    expect(describeSource(BUILT).cases.map((c) => c.id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    const result = analyzeSourceCase(BUILT, { id: 'c1', inputs: { x: 1 } }, DEFAULT_SETTINGS);
    expect(result.shapley).toEqual({ a: 1 });
  });

  it('accepts `cases: name`, cases built by a map, a declaration spread over lines, and `var`', () => {
    for (const source of [
      BUILT.replace('  cases,\n', '  cases: cases,\n'),
      BUILT.replace(/const cases = \[\];\nfor[^}]*}\n/, 'const cases = Array.from({ length: 5 }, (_, i) => make(i));\n'),
      BUILT.replace('const cases = [];', 'var cases\n  = [];'),
    ]) {
      expect(rewritten(source), source).toBe(true);
      expect(prepareSource(source, 'pipeline.js').body.split('\n')).toHaveLength(source.split('\n').length);
      expect(describeSource(source).cases.map((c) => c.id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    }
  });

  it('points errors inside the building statements at the user line and column', () => {
    const failing = BUILT.replace('cases.push(make(i));', 'cases.push(make(i)); if (i === 3) null.x;');
    expect(rewritten(failing)).toBe(true);
    let message = '';
    try {
      compilePipeline(failing);
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/\(at pipeline\.js:4:(\d+)\)/);
    const column = Number(/pipeline\.js:4:(\d+)/.exec(message)![1]);
    // V8 points at `null.x` or at its `.x`; either is on the user's line 4, past the push.
    expect(failing.split('\n')[3].slice(column - 1)).toMatch(/^\.?x|^null\.x/);
  });

  it.each([
    ['a step mentions the cases', BUILT.replace("run: ({ x }) => (x % 2 ? 'bad' : 'ok')", "run: ({ x }) => (cases.length > x ? 'bad' : 'ok')")],
    ['a builder assigns another top-level name', BUILT.replace('const cases = [];', 'let made = 0;\nconst cases = [];').replace('cases.push(make(i));', 'cases.push(make(i)); made++;')],
    ['a function the builders call assigns top-level state', BUILT.replace("const make = (i) => ({ id: 'c' + i, inputs: { x: i } });", "let made = 0;\nconst make = (i) => { made++; return { id: 'c' + i, inputs: { x: i } }; };")],
    ['later top-level code changes what the builders read', BUILT.replace("const make = (i) => ({ id: 'c' + i, inputs: { x: i } });", "const xs = [0, 1, 2, 3, 4];\nconst make = (i) => ({ id: 'c' + i, inputs: { x: xs[i] } });").replace('export default', 'xs.reverse();\nexport default')],
    ['a builder declares a var', BUILT.replace('cases.push(make(i));', 'var last = make(i); cases.push(last);')],
    ['the cases share their declaration', BUILT.replace('const cases = [];', 'const cases = [], more = [];')],
    ['another exported property uses the cases', BUILT.replace("name: 'built',", "name: 'built' + cases.length,")],
    ['a later statement reads the cases', BUILT.replace('export default', 'const count = cases.length;\nexport default')],
  ])('leaves the definition as written when %s', (_, source) => {
    expect(rewritten(source)).toBe(false);
    // And it still works as written.
    expect(() => compilePipeline(source)).not.toThrow();
  });
});
