import { describe, expect, it } from 'vitest';
import { aggregateBatch } from './batch.ts';
import { compareStudies, type StudySide } from './compare-studies.ts';
import { differenceInterval } from './stats/difference-interval.ts';
import { testResult } from './testing/results.ts';
import type { CaseResult } from './types.ts';

const Z = 1.959964; // Φ⁻¹(0.975)

function side(rows: { id: string; a: number; b: number; alone?: string[] }[], extra: CaseResult[] = []): StudySide {
  const results = [
    ...rows.map((r) => testResult({ id: r.id, players: ['a', 'b'], shapley: { a: r.a, b: r.b }, resolvedAlone: r.alone ?? [] })),
    ...extra,
  ];
  return { results, batch: aggregateBatch(results, { delta: 0.05, bound: 'normal' }) };
}

const BEFORE = side(
  [
    { id: 'c1', a: 0.5, b: 0.5, alone: ['a'] },
    { id: 'c2', a: 0.5, b: 0.5 },
    { id: 'c3', a: 0.2, b: 0.8, alone: ['b'] },
  ],
  // A passing case and one that could not be analysed take no part.
  [testResult({ id: 'ok', players: ['a', 'b'], failed: false }), testResult({ id: 'broken', players: ['a', 'b'], error: 'step a threw' })],
);

describe('comparing two studies', () => {
  it('pairs the per-case differences when both studies analysed the same failures', () => {
    const after = side([
      { id: 'c1', a: 1, b: 0, alone: ['a'] },
      { id: 'c2', a: 0.8, b: 0.2, alone: ['a'] },
      { id: 'c3', a: 0.2, b: 0.8, alone: ['b'] },
    ]);
    const c = compareStudies(BEFORE, after);
    expect(c.paired).toBe(true);
    expect(c.shared).toBe(3);
    const [a, b] = c.steps;
    // Means 0.4 -> 2/3 and 0.6 -> 1/3; differences of step a per case 0.5, 0.3, 0 (variance 0.19/3).
    expect(a.step).toBe('a');
    expect(a.shapleyChange).toBeCloseTo(2 / 3 - 0.4, 12);
    const radius = Z * Math.sqrt(0.19 / 3 / 3);
    expect(a.ci![0]).toBeCloseTo(2 / 3 - 0.4 - radius, 6);
    expect(a.ci![1]).toBeCloseTo(2 / 3 - 0.4 + radius, 6);
    expect(b.shapleyChange).toBeCloseTo(1 / 3 - 0.6, 12);
    // Fix-alone rates 1/3 -> 2/3 for a, 1/3 -> 1/3 for b; a rises from second to first.
    expect(a.fixAloneChange).toBeCloseTo(1 / 3, 12);
    expect(b.fixAloneChange).toBeCloseTo(0, 12);
    expect([a.before!.rank, a.after!.rank, a.rankChange]).toEqual([2, 1, 1]);
    expect([b.before!.rank, b.after!.rank, b.rankChange]).toEqual([1, 2, -1]);
    // c1 moved 0.5 + 0.5, c2 0.3 + 0.3, c3 not at all; a tie between steps names the first.
    expect(c.cases.map((x) => [x.id, x.step])).toEqual([['c1', 'a'], ['c2', 'a'], ['c3', 'a']]);
    expect(c.cases[0].movement).toBeCloseTo(1, 12);
    expect(c.cases[1]).toMatchObject({ before: 0.5, after: 0.8 });
    expect(c.cases[1].movement).toBeCloseTo(0.6, 12);
  });

  it("uses Welch's unpaired interval when the failures differ, and lists only the shared ones per case", () => {
    const after = side([
      { id: 'c1', a: 1, b: 0 },
      { id: 'c2', a: 0.8, b: 0.2 },
      { id: 'c4', a: 0.5, b: 0.5 },
    ]);
    const c = compareStudies(BEFORE, after);
    expect(c.paired).toBe(false);
    expect(c.shared).toBe(2);
    expect(c.cases.map((x) => x.id)).toEqual(['c1', 'c2']);
    // Step a: before 0.5, 0.5, 0.2 (variance 0.03); after 1, 0.8, 0.5 (variance 0.19/3).
    const change = 2.3 / 3 - 0.4;
    const radius = Z * Math.sqrt(0.03 / 3 + 0.19 / 3 / 3);
    expect(c.steps[0].shapleyChange).toBeCloseTo(change, 12);
    expect(c.steps[0].ci![0]).toBeCloseTo(change - radius, 6);
    expect(c.steps[0].ci![1]).toBeCloseTo(change + radius, 6);
  });

  it('falls back to the difference of the batch intervals with one failure: a point for exact values', () => {
    const before = side([{ id: 'q1', a: 0.25, b: 0.75 }]);
    const after = side([{ id: 'q1', a: 0.5, b: 0.5 }]);
    const c = compareStudies(before, after);
    expect(c.steps[0].shapleyChange).toBe(0.25);
    expect(c.steps[0].ci).toEqual([0.25, 0.25]);
  });

  it('keeps a step found in one study only, with no change', () => {
    const only = testResult({ id: 'c1', players: ['a', 'b', 'c'], shapley: { a: 0.2, b: 0.3, c: 0.5 } });
    const after: StudySide = { results: [only], batch: aggregateBatch([only], { delta: 0.05, bound: 'normal' }) };
    const c = compareStudies(BEFORE, after);
    expect(c.steps.map((s) => s.step)).toEqual(['a', 'b', 'c']);
    expect(c.steps[2]).toMatchObject({ before: null, shapleyChange: null, ci: null, rankChange: null });
    expect(c.steps[2].after?.meanShapley).toBe(0.5);
    // c1's movement counts step c as 0 before: |0.2 - 0.5| + |0.3 - 0.5| + |0.5 - 0|.
    expect(c.cases[0].movement).toBeCloseTo(1, 12);
    expect(c.cases[0].step).toBe('c');
  });

  it('refuses paired samples of different sizes', () => {
    expect(() => differenceInterval([1, 2], [1], 0, true, 0.05)).toThrow(/as many values/);
    expect(differenceInterval([1], [1, 2], 0, false, 0.05)).toBeNull();
  });
});
