import { describe, expect, it } from 'vitest';
import { validateCaseResult } from './validate-result.ts';

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
