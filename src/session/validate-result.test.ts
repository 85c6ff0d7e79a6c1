import { describe, expect, it } from 'vitest';
import { validateCaseResult } from './validate-result.ts';
import { analyzeCase } from '../engine/analyze.ts';
import { errorResult } from '../engine/case-result.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { analyzeTableGame } from '../engine/table-game.ts';
import { refundPipeline } from '../engine/testing/refund.ts';
import { tableGame, tableOf } from '../engine/testing/games.ts';

const common = { id: 'q1', players: ['a', 'b'], method: 'exact', vEmpty: 0, vAll: 1, cost: 2, evaluations: 4, permutations: 0 };
const blame = { shapley: { a: 0.25, b: 0.75 }, fixAlone: { a: 0, b: 1 }, leaveOneOut: { a: 0, b: 1 }, stopReason: 'exact', fixable: true };

describe('validateCaseResult reads the three kinds of result', () => {
  it('keeps an attributed failure with its blame', () => {
    const r = validateCaseResult({ ...common, failed: true, ...blame, resolvedAlone: ['b'] }, 'results[0]');
    expect(r).toMatchObject({ failed: true, shapley: blame.shapley, resolvedAlone: ['b'], fixable: true });
  });

  it('refuses a failing case without error that lacks its blame, naming the field', () => {
    expect(() => validateCaseResult({ ...common, failed: true }, 'results[0]')).toThrow(/results\[0\]\.shapley: is missing/);
    expect(() => validateCaseResult({ ...common, failed: true, ...blame, fixable: undefined }, 'results[3]')).toThrow(/results\[3\]\.fixable: is missing/);
    expect(() => validateCaseResult({ ...common, failed: true, ...blame, resolvedAlone: ['c'] }, 'results[0]')).toThrow(/results\[0\]\.resolvedAlone\[0\]/);
    expect(() => validateCaseResult({ ...common, failed: true, ...blame, fixAlone: undefined }, 'results[2]')).toThrow(/results\[2\]\.fixAlone: is missing/);
  });

  it('keeps a failure whose baselines a budget left out, saying so in notComputed; refuses an empty or unknown list', () => {
    const r = validateCaseResult({ ...common, method: 'mc', failed: true, ...blame, fixAlone: undefined, leaveOneOut: undefined, notComputed: ['fixAlone', 'leaveOneOut'] }, 'results[0]');
    expect([r.fixAlone, r.leaveOneOut, r.notComputed]).toEqual([undefined, undefined, ['fixAlone', 'leaveOneOut']]);
    expect(() => validateCaseResult({ ...common, failed: true, ...blame, notComputed: [] }, 'results[1]')).toThrow(/results\[1\]\.notComputed: is empty/);
    expect(() => validateCaseResult({ ...common, failed: true, ...blame, notComputed: ['shapley'] }, 'results[1]')).toThrow(/results\[1\]\.notComputed\[0\]/);
  });

  it('drops attribution from a passed case and from an error, and reads an error as failed', () => {
    const passed = validateCaseResult({ ...common, failed: false, ...blame }, 'results[0]');
    expect(passed.failed).toBe(false);
    expect(passed.shapley).toBeUndefined();
    const error = validateCaseResult({ ...common, failed: false, vEmpty: null, vAll: null, ...blame, error: 'step "a" threw' }, 'results[1]');
    expect(error).toMatchObject({ failed: true, error: 'step "a" threw' });
    expect(error.shapley).toBeUndefined();
    expect(error.vEmpty).toBeNaN();
  });
});

describe('validateCaseResult reads the fields of the field table, and only those', () => {
  it('refuses a field the table does not list, naming its path', () => {
    expect(() => validateCaseResult({ ...common, failed: true, ...blame, shapleyy: { a: 1 } }, 'cases[3].result')).toThrow(/^cases\[3\]\.result\.shapleyy: unknown field/);
    expect(() => validateCaseResult({ ...common, failed: false, __proto__x: 1 }, 'results[0]')).toThrow(/results\[0\]\.__proto__x: unknown field/);
    // A key JSON.parse makes an own property, never the prototype.
    expect(() => validateCaseResult(JSON.parse('{"id":"q1","players":["a"],"method":"exact","failed":false,"vEmpty":1,"vAll":1,"cost":0,"evaluations":1,"permutations":0,"__proto__":{}}'), 'results[0]')).toThrow(/results\[0\]\.__proto__: unknown field/);
  });

  it('refuses an unknown field inside a coalition, a checkpoint, an interaction', () => {
    const failure = { ...common, failed: true, ...blame };
    expect(() => validateCaseResult({ ...failure, coalitions: [{ fixed: [], value: 0, note: 1 }] }, 'r')).toThrow(/r\.coalitions\[0\]\.note: unknown field/);
    expect(() => validateCaseResult({ ...failure, history: [{ permutations: 1, cost: 0, values: [0, 1], ci: [[0, 1], [0, 1]], extra: 0 }] }, 'r')).toThrow(/r\.history\[0\]\.extra: unknown field/);
    expect(() => validateCaseResult({ ...failure, interactions: [{ steps: ['a', 'b'], value: 0, sample: 3 }] }, 'r')).toThrow(/r\.interactions\[0\]\.sample: unknown field/);
  });

  it('takes an interaction a budget bounded only with its bounds, and bounded only as true', () => {
    const failure = { ...common, failed: true, ...blame };
    const bounded = { steps: ['a', 'b'], value: 0.25, ci: [-0.5, 1], bounded: true };
    expect(validateCaseResult({ ...failure, interactions: [bounded] }, 'r')).toMatchObject({ interactions: [bounded] });
    expect(() => validateCaseResult({ ...failure, interactions: [{ ...bounded, ci: undefined }] }, 'r')).toThrow('r.interactions[0].ci: missing: a bounded interaction carries its bounds');
    expect(() => validateCaseResult({ ...failure, interactions: [{ ...bounded, bounded: false }] }, 'r')).toThrow('r.interactions[0].bounded: expected true (or no field), got false');
  });

  it('gives back, through JSON, every kind of result the engine builds, with every field it writes', () => {
    const exact = { ...DEFAULT_SETTINGS, method: 'exact' as const, interactions: true, repairs: { size: 4 } };
    const sampled = { ...DEFAULT_SETTINGS, method: 'mc' as const, maxPermutations: 40, stop: 'budget' as const, interactions: true };
    const refundCase = { id: 'r1', inputs: { question: 'refund window?' } };
    const results = [
      analyzeCase(refundPipeline('A'), refundCase, exact),
      analyzeCase(refundPipeline('A'), refundCase, sampled),
      analyzeTableGame(tableGame(tableOf(2, (m) => m.length / 2), 2, 'g1'), exact),
      analyzeTableGame(tableGame(tableOf(2, () => 1), 2, 'g2'), exact),
      // A recorded run the replay does not match, and an error with model usage (what the pools add).
      analyzeCase(refundPipeline('A'), { ...refundCase, id: 'r2', outputs: { planner: { dated: true } } }, exact),
      { ...errorResult('e1', ['a', 'b'], { method: 'exact' }, 'case "e1": step "a" threw'), usage: { requests: 2, cacheHits: 1, inputTokens: 30, outputTokens: 4 }, modelKeys: ['ab'.repeat(32)] },
    ];
    const kinds = results.map((r) => (r.error !== undefined ? 'error' : r.failed ? 'attributed' : 'passed'));
    expect(kinds).toEqual(['attributed', 'attributed', 'attributed', 'passed', 'attributed', 'error']);
    expect(results[4].mismatches?.length).toBeGreaterThan(0);
    // The sampled run carries its estimator, intervals and history; the exact one its repairs and outputs.
    expect(Object.keys(results[1])).toEqual(expect.arrayContaining(['ci', 'history', 'estimator', 'interactions']));
    expect(Object.keys(results[0])).toEqual(expect.arrayContaining(['repairs', 'repairSearch', 'repairedOutputs', 'factualOutputs', 'fixedOutputs', 'coalitions', 'resolvedAlone']));
    results.forEach((r, k) => expect(validateCaseResult(JSON.parse(JSON.stringify(r)), `results[${k}]`)).toEqual(r));
  });
});
