import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import { analyzeSourceCase, describeSource } from './analyze-source.ts';
import { prepareSource } from './prepare-source.ts';

const SOURCE = `const make = (i) => ({ id: 'c' + i, inputs: { x: i } });
export default {
  name: 'own-cases',
  steps: [{ name: 'a', inputs: ['x'], cost: 1, run: () => 'bad', fixes: [{ name: 'f', cost: 1, run: () => 'ok' }] }],
  metric: (outputs) => (outputs.a === 'ok' ? 1 : 0),
  cases: Array.from({ length: 3 }, (_, i) => make(i)),
};`;

describe('a definition that lists its own cases (linear in the number of cases)', () => {
  it('builds its cases only when they are read: the inline expression becomes a getter, lines unchanged', () => {
    const { body } = prepareSource(SOURCE, 'pipeline.js');
    expect(body).toContain('get cases() { return (Array.from({ length: 3 }, (_, i) => make(i))); }');
    expect(body.split('\n')).toHaveLength(SOURCE.split('\n').length);
  });

  it('still describes and analyses its cases', () => {
    expect(describeSource(SOURCE).cases.map((c) => c.id)).toEqual(['c0', 'c1', 'c2']);
    const result = analyzeSourceCase(SOURCE, { id: 'c1', inputs: { x: 1 } }, DEFAULT_SETTINGS);
    expect(result.shapley).toEqual({ a: 1 });
  });

  it('leaves computed keys alone (cases given by name: see deferred-cases.test.ts)', () => {
    const computed = SOURCE.replace('cases: Array.from', "['cas' + 'es']: Array.from");
    expect(prepareSource(computed, 'pipeline.js').body).not.toContain('get cases()');
    expect(describeSource(computed).cases.map((c) => c.id)).toEqual(['c0', 'c1', 'c2']);
  });
});
