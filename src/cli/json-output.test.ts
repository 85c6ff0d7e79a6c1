import { describe, expect, it } from 'vitest';
import { caseForJson } from './json-output.ts';
import { formatCase } from './tables.ts';
import { testResult } from '../engine/testing/results.ts';

const players = ['plan', 'write'];
const outputs = { plan: 'p', write: 'w' };

describe('caseForJson prints the field table\'s printed fields, in its order', () => {
  it('an error: only what names it', () => {
    const r = testResult({ id: 'e', players, error: 'case "e": step "plan" threw', usage: { requests: 1, cacheHits: 0, inputTokens: 1, outputTokens: 1 }, mismatches: ['x'] });
    expect(Object.keys(caseForJson(r))).toEqual(['id', 'players', 'method', 'failed', 'error']);
  });

  it('a passed case: its numbers, queries 0 when not counted, no outputs', () => {
    const r = testResult({ id: 'p', players, failed: false, factualOutputs: outputs, modelKeys: ['ab'.repeat(32)] });
    const json = caseForJson(r);
    expect(Object.keys(json)).toEqual(['id', 'players', 'method', 'failed', 'vEmpty', 'vAll', 'cost', 'evaluations', 'queries', 'permutations']);
    expect(json.queries).toBe(0);
  });

  it('an attributed failure: blame and baselines, lastTouch null when absent, drill-down data left out', () => {
    const r = testResult({
      id: 'a', players, shapley: { plan: 0.75, write: 0.25 }, ci: { plan: [0.5, 1], write: [0, 0.5] }, queries: 7, estimator: 'permutation',
      resolvedAlone: ['plan'], factualOutputs: outputs, fixedOutputs: outputs, coalitions: [{ fixed: [], value: 0 }], history: [],
      repairs: [{ fixed: ['plan'], value: 1, cost: 1 }], repairSearch: { success: 1, maxSize: 2, complete: true }, repairedOutputs: outputs,
    });
    const json = caseForJson(r);
    expect(Object.keys(json)).toEqual([
      'id', 'players', 'method', 'failed', 'vEmpty', 'vAll', 'shapley', 'ci', 'fixAlone', 'leaveOneOut', 'lastTouch',
      'cost', 'evaluations', 'queries', 'permutations', 'estimator', 'stopReason', 'fixable', 'repairs', 'repairSearch',
    ]);
    expect(json.lastTouch).toBeNull();
    expect(json.queries).toBe(7);
  });
});

describe('formatCase lays out the per-step columns the field table gives', () => {
  it('fix-alone, leave-one-out, Shapley, then the interval when there is one', () => {
    const r = testResult({ id: 'a', players, shapley: { plan: 0.75, write: 0.25 }, fixAlone: { plan: 1, write: 0 }, leaveOneOut: { plan: 0.5, write: 0 }, ci: { plan: [0.5, 1] } });
    const lines = formatCase(r).split('\n');
    expect(lines[1].split(/\s+/)).toEqual(['step', 'fix-alone', 'leave-1-out', 'Shapley', 'interval']);
    expect(lines[2].split(/\s+/)).toEqual(['plan', '+1.000', '+0.500', '+0.750', '[+0.500,', '+1.000]']);
    // A step the interval record lacks shows '-'.
    expect(lines[3].split(/\s+/)).toEqual(['write', '+0.000', '+0.000', '+0.250', '-']);
    const exact = testResult({ id: 'b', players, shapley: { plan: 1, write: 0 } });
    expect(formatCase(exact).split('\n')[1].split(/\s+/)).toEqual(['step', 'fix-alone', 'leave-1-out', 'Shapley']);
  });
});
