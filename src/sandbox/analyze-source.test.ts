import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import { analyzeSourceCase, compileChecked, describeSource } from './analyze-source.ts';
import { oneStepSource } from './testing/one-step.ts';
import { REFUND_POLICY_SOURCE } from './testing/refund-policy.ts';

describe('describeSource', () => {
  it('gives the structure and cases as plain data', () => {
    const description = describeSource(REFUND_POLICY_SOURCE);
    expect(structuredClone(description)).toEqual(description);
    expect(description).toEqual({
      name: 'refund-policy',
      steps: [
        { name: 'planner', inputs: ['question'], cost: 1, fixes: ['date constraint'] },
        { name: 'retriever', inputs: ['planner'], cost: 2, fixes: ['reranker'] },
        { name: 'writer', inputs: ['planner', 'retriever'], cost: 3, fixes: ['hedge when unsure'] },
        { name: 'reviewer', inputs: ['writer'], cost: 1, fixes: ['resolve hedges'] },
      ],
      cases: [
        { id: 'q1', inputs: { question: 'Can I get a refund after 30 days?' }, seed: 1 },
        { id: 'q2', inputs: { question: 'Is shipping refunded?' }, seed: 2 },
      ],
      threshold: 1,
      range: [0, 1],
    });
  });

  it('includes threshold and range when the definition sets them', () => {
    const source = oneStepSource('return 1;').replace("name: 'probe-pipeline',", "name: 'probe-pipeline', threshold: 0.5, range: [0, 2],");
    expect(describeSource(source)).toMatchObject({ threshold: 0.5, range: [0, 2] });
  });
});

describe('analyzeSourceCase', () => {
  it('attributes the refund-policy failure as v = max(P, R, W*V) predicts: 5/12, 5/12, 1/12, 1/12', () => {
    const [q1] = describeSource(REFUND_POLICY_SOURCE).cases;
    const result = analyzeSourceCase(REFUND_POLICY_SOURCE, q1, DEFAULT_SETTINGS);
    expect(result.error).toBeUndefined();
    expect(result.failed).toBe(true);
    expect(result.vEmpty).toBe(0);
    expect(result.vAll).toBe(1);
    const shapley = result.shapley!;
    expect(shapley.planner).toBeCloseTo(5 / 12, 12);
    expect(shapley.retriever).toBeCloseTo(5 / 12, 12);
    expect(shapley.writer).toBeCloseTo(1 / 12, 12);
    expect(shapley.reviewer).toBeCloseTo(1 / 12, 12);
    expect(result.factualOutputs).toMatchObject({ retriever: 'stale', writer: 'wrong', reviewer: 'bad' });
    expect(structuredClone(result)).toEqual(result);
  });

  it('tells the watchdog hooks which step and when the metric runs', () => {
    const [q1] = describeSource(REFUND_POLICY_SOURCE).cases;
    const events: string[] = [];
    analyzeSourceCase(REFUND_POLICY_SOURCE, q1, DEFAULT_SETTINGS, {
      onStepStart: (index) => events.push(`step ${index}`),
      onMetricStart: () => events.push('metric'),
    });
    expect(events.slice(0, 5)).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'metric']);
  });

  it('turns a throwing step into a per-case error naming case and step', () => {
    const source = oneStepSource("if (inputs.question === 'bad') throw new Error('cannot answer'); return 'as run';");
    const result = analyzeSourceCase(source, { id: 'q7', inputs: { question: 'bad', doc: null } }, DEFAULT_SETTINGS);
    expect(result).toMatchObject({ id: 'q7', players: ['probe'], failed: true });
    expect(result.error).toBe('case "q7": step "probe" threw: Error: cannot answer (at pipeline.js:6:70)');
  });

  it('does not let one case see state left by another (fresh instance per case)', () => {
    const source = oneStepSource('seen += 1; return seen === 1 ? "first" : "later";', 'let seen = 0;');
    const caseDef = { id: 'c', inputs: { question: 'q', doc: null } };
    const first = analyzeSourceCase(source, caseDef, DEFAULT_SETTINGS);
    const second = analyzeSourceCase(source, caseDef, DEFAULT_SETTINGS);
    expect(first.factualOutputs).toEqual({ probe: 'first' });
    expect(second).toEqual(first);
  });

  it('reports case inputs that are not plain data as that case\'s error', () => {
    const source = oneStepSource('return 1;');
    const result = analyzeSourceCase(source, { id: 'odd', inputs: { question: new Map(), doc: null } }, DEFAULT_SETTINGS);
    expect(result.error).toBe('case "odd": inputs.question is a Map, not a plain object or array');
  });
});

describe('instances without the definition cases', () => {
  const steps = "steps: [{ name: 's', inputs: [], cost: 1, run: () => 1, fixes: [{ name: 'f', cost: 1, run: () => 2 }] }], metric: (o) => o.s === 2 ? 1 : 0";

  it('still checks the cases on the first instance of a source', () => {
    const bad = `export default { name: 'p', ${steps}, cases: [{ id: 'a', inputs: {} }, { id: 'a', inputs: {} }] };`;
    expect(() => compileChecked(bad, 'bad-cases.js', { cases: false })).toThrow('bad-cases.js: cases[1].id: duplicate case id "a" (also cases[0])');
  });

  it('leaves the cases out of later instances only', () => {
    const good = `export default { name: 'p', ${steps}, cases: [{ id: 'a', inputs: {} }] };`;
    expect(compileChecked(good, 'later.js', { cases: false }).cases).toEqual([{ id: 'a', inputs: {} }]);
    expect(compileChecked(good, 'later.js', { cases: false }).cases).toBeUndefined();
    expect(compileChecked(good, 'later.js').cases).toEqual([{ id: 'a', inputs: {} }]);
  });
});
