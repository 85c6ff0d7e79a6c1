import { describe, expect, it } from 'vitest';
import { buildRun } from './build-run.ts';
import { heuristicPrediction } from './heuristics.ts';
import { randomBaseline, scorePredictions } from './score.ts';
import type { StepDraft } from './types.ts';
import { wilsonInterval } from '../engine/stats/wilson-interval.ts';

function turn(i: number, agent: string, text: string, kind: StepDraft['kind'] = 'agent'): StepDraft {
  return { id: String(i), parent: null, name: agent, agent, kind, start: null, end: null, model: null, usage: null, error: null, order: i, output: { form: 'value', value: text }, attributes: {} };
}

const runA = buildRun({ id: 'a', group: 'G1', label: { agent: 'Coder', step: 1 }, steps: [turn(0, 'human', 'task', 'other'), turn(1, 'Coder', 'print(1/0)'), turn(2, 'Computer_terminal', 'exitcode: 1 (execution failed)', 'tool'), turn(3, 'Checker', 'Looks fine'), turn(4, 'Checker', 'TERMINATE')] });
const runB = buildRun({ id: 'b', group: 'G2', label: { agent: 'Checker', step: 3 }, steps: [turn(0, 'Coder', 'x'), turn(1, 'Computer_terminal', 'exitcode: 0', 'tool'), turn(2, 'Coder', 'y'), turn(3, 'Checker', 'done')] });

describe('wilsonInterval', () => {
  it('matches the hand-computed 95% interval for 8 of 10: [0.4902, 0.9433]', () => {
    const [lo, hi] = wilsonInterval(8, 10);
    expect(lo).toBeCloseTo(0.4902, 4);
    expect(hi).toBeCloseTo(0.9433, 4);
  });
  it('stays inside [0, 1] at 0 and n successes, and is [0, 1] with no trials', () => {
    expect(wilsonInterval(0, 5)[0]).toBe(0);
    expect(wilsonInterval(5, 5)[1]).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});

describe('heuristics', () => {
  it('name the last step, the first failed execution, and the last turn that wrote output', () => {
    expect(heuristicPrediction(runA, 'last-step')).toEqual({ agent: 'Checker', step: 4 });
    expect(heuristicPrediction(runA, 'first-error')).toEqual({ agent: 'Computer_terminal', step: 2 });
    expect(heuristicPrediction(runA, 'last-touch')).toEqual({ agent: 'Checker', step: 3 });
    expect(heuristicPrediction(runB, 'first-error')).toBeNull();
  });
});

describe('scorePredictions', () => {
  it('counts exact step indexes and case-insensitive agents, per group and overall', () => {
    const result = scorePredictions([runA, runB], { a: { agent: 'coder', step: 1 }, b: { agent: 'Coder', step: 13 } });
    expect(result.all.agent.correct).toBe(1);
    expect(result.all.step.correct).toBe(1);
    expect(result.groups.G1.step.rate).toBe(1);
    expect(result.groups.G2.step.rate).toBe(0);
    expect(result.all.step.ci).toEqual(wilsonInterval(1, 2));
  });
  it('counts a run without a prediction as wrong, and a step 3 does not match a label of 13 or 1', () => {
    const result = scorePredictions([runA, runB], { b: { step: 3 } });
    expect(result.all).toMatchObject({ runs: 2, missing: 1, step: { correct: 1 }, agent: { correct: 0 } });
  });
});

describe('randomBaseline', () => {
  it('is the mean of 1 / steps, and of the labelled agent share of turns', () => {
    expect(randomBaseline([runA, runB])).toEqual({ runs: 2, step: (1 / 5 + 1 / 4) / 2, agent: (1 / 5 + 1 / 4) / 2 });
  });
});
