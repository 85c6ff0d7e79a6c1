import { describe, expect, it } from 'vitest';
import { boundKeptOutputs, jsonLongerThan, jsonSizeUpTo, keptOutputsPerCase, keptResult } from '../engine/kept-outputs.ts';
import { MAX_KEPT_ALONE_OUTPUT_CHARS, MAX_KEPT_OUTPUTS_TOTAL } from '../engine/limits.ts';
import { resultKeeper } from '../cli/printed-result.ts';
import type { CaseResult } from '../engine/types.ts';

describe('kept step outputs are bounded', () => {
  it.each([
    ['a short string', 'abc', 10, false],
    ['a string past the limit', 'x'.repeat(11), 10, true],
    ['many small numbers', Array.from({ length: 100 }, (_, i) => i), 150, true],
    ['a nested object within the limit', { a: { b: [1, 2, 3] } }, 100, false],
  ])('jsonLongerThan: %s', (_, value, limit, expected) => {
    expect(jsonLongerThan(value, limit)).toBe(expected);
    if (expected === false) expect(JSON.stringify(value).length).toBeLessThanOrEqual(limit);
  });

  it('replaces only the outputs past the limit, keeping names like __proto__', () => {
    const factualOutputs = JSON.parse('{"__proto__": "small", "big": "' + 'y'.repeat(200) + '"}') as Record<string, unknown>;
    const result = { id: 'c', players: ['__proto__', 'big'], method: 'exact', failed: true, vEmpty: 0, vAll: 1, cost: 1, evaluations: 1, permutations: 0, factualOutputs } as CaseResult;
    const bounded = boundKeptOutputs(result, 100);
    expect(Object.keys(bounded.factualOutputs!)).toEqual(['__proto__', 'big']);
    expect(bounded.factualOutputs!['__proto__']).toBe('small');
    expect(bounded.factualOutputs!.big).toBe('[output cut: more than 100 characters of JSON; results keep smaller outputs only]');
    expect(boundKeptOutputs({ ...result, factualOutputs: { a: 1 } }, 100).factualOutputs).toEqual({ a: 1 });
  });

  it('keeps each step\'s fix-alone outputs last, within their own cap of what is left', () => {
    const big = 'q'.repeat(MAX_KEPT_ALONE_OUTPUT_CHARS / 4);
    const aloneOutputs = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((p) => [p, { a: big }]));
    const result = { id: 'c', players: Object.keys(aloneOutputs), method: 'exact', failed: true, vEmpty: 0, vAll: 1, cost: 1, evaluations: 1, permutations: 0, factualOutputs: { a: 'x' }, aloneOutputs } as unknown as CaseResult;
    const bounded = boundKeptOutputs(result, MAX_KEPT_ALONE_OUTPUT_CHARS, Infinity);
    // Three fit in the cap (each a quarter of it, with its quotes and key); the others are cut, in player order.
    expect(Object.keys(bounded.aloneOutputs!)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(['a', 'b', 'c', 'd', 'e', 'f'].map((p) => bounded.aloneOutputs![p].a === big)).toEqual([true, true, true, false, false, false]);
    expect(bounded.aloneOutputs!.d.a).toMatch(/^\[output cut/);
    expect(bounded.factualOutputs).toEqual({ a: 'x' });
    // Nothing past the limits: the result itself.
    const small = { ...result, aloneOutputs: { a: { a: 1 } } } as unknown as CaseResult;
    expect(boundKeptOutputs(small, 100, 1000)).toBe(small);
  });

  it('measures JSON size exactly for strings and stops counting past the limit', () => {
    expect(jsonSizeUpTo('abc', 100)).toBe(JSON.stringify('abc').length);
    expect(jsonSizeUpTo(['ab', 'cd'], 100)).toBe(JSON.stringify(['ab', 'cd']).length + 1);
    expect(jsonSizeUpTo(Array.from({ length: 1_000 }, () => 'x'.repeat(10)), 1000)).toBeGreaterThan(1000);
    expect(jsonSizeUpTo({ a: 'x'.repeat(5000), b: 'y' }, 1000)).toBeGreaterThan(1000);
  });

  it('keeps outputs within a per-case budget: factual first, in step order, then the all-fixed ones', () => {
    const factualOutputs = { a: 'x'.repeat(40), b: 'y'.repeat(40), c: 'z'.repeat(10) };
    const fixedOutputs = { a: 'ok', b: 'w'.repeat(40), c: 'v' };
    const result = { id: 'c', players: ['a', 'b', 'c'], method: 'exact', failed: true, vEmpty: 0, vAll: 1, cost: 1, evaluations: 1, permutations: 0, factualOutputs, fixedOutputs } as unknown as CaseResult;
    const bounded = boundKeptOutputs(result, 100, 70);
    // a costs 42 (28 left), b does not fit (cut), c costs 12 (16 left), fixed a costs 4 (12 left), fixed b is cut, fixed c fits.
    expect(bounded.factualOutputs).toEqual({ a: factualOutputs.a, b: '[output cut: more than 28 characters of JSON; results keep smaller outputs only]', c: factualOutputs.c });
    expect(bounded.fixedOutputs).toEqual({ a: 'ok', b: '[output cut: more than 12 characters of JSON; results keep smaller outputs only]', c: 'v' });
  });

  it('a study shares MAX_KEPT_OUTPUTS_TOTAL equally between its cases', () => {
    expect(keptOutputsPerCase(1)).toBe(MAX_KEPT_OUTPUTS_TOTAL);
    expect(keptOutputsPerCase(300_000)).toBe(Math.floor(MAX_KEPT_OUTPUTS_TOTAL / 300_000));
    const output = 'x'.repeat(MAX_KEPT_OUTPUTS_TOTAL / 1000);
    const result = { id: 'c', players: ['a'], method: 'exact', failed: false, vEmpty: 1, vAll: 1, cost: 1, evaluations: 1, permutations: 0, factualOutputs: { a: output } } as CaseResult;
    expect(keptResult(result, 100).factualOutputs!.a).toBe(output);
    expect(keptResult(result, 1000).factualOutputs!.a).toMatch(/^\[output cut: more than 20000 characters/);
  });

  it('the command keeps no outputs, coalitions or history unless it saves a session or report', () => {
    const result = {
      id: 'c', players: ['a'], method: 'exact', failed: true, vEmpty: 0, vAll: 1, cost: 1, evaluations: 2, permutations: 0,
      shapley: { a: 1 }, fixAlone: { a: 1 }, leaveOneOut: { a: 1 }, stopReason: 'exact', fixable: true,
      factualOutputs: { a: 'bad' }, fixedOutputs: { a: 'ok' }, coalitions: [{ fixed: ['a'], value: 1 }],
    } as CaseResult;
    const printed = resultKeeper(false, 10)(result);
    expect(printed).not.toHaveProperty('factualOutputs');
    expect(printed).not.toHaveProperty('fixedOutputs');
    expect(printed).not.toHaveProperty('coalitions');
    expect(printed.shapley).toEqual({ a: 1 });
    expect(resultKeeper(true, 10)(result)).toEqual(result);
  });
});
