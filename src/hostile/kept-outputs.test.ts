import { describe, expect, it } from 'vitest';
import { boundKeptOutputs, jsonLongerThan } from '../engine/kept-outputs.ts';
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
});
