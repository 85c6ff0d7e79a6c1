import { describe, expect, it } from 'vitest';
import { boundedInteractions, exactInteractionsFromTable, pairInteractions, sampledInteractions, EXACT_INTERACTION_MAX_PLAYERS } from './interactions.ts';
import { TableGameAdapter, analyzeTableGame } from '../table-game.ts';
import { analyzeCase } from '../analyze.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';
import { seededRng } from '../rng.ts';
import { playerNames, randomTable, tableGame, tableOf } from '../testing/games.ts';
import { refundPipeline } from '../testing/refund.ts';
import type { PairInteraction } from '../types.ts';

const value = (xs: PairInteraction[], a: string, b: string) => xs.find((x) => x.steps[0] === a && x.steps[1] === b)!.value;

describe('pairwise Shapley interaction index', () => {
  it('bounds from the known coalitions: the exact value when all are known, sure and sharp bounds when some are not', () => {
    const n = 5;
    const names = playerNames(n);
    const rng = seededRng(7);
    const table = randomTable(n, rng);
    const exact = exactInteractionsFromTable(table, n, names);
    const all = boundedInteractions(names, [0, 1], (mask) => table[mask]);
    all.forEach((x, k) => {
      expect(x.value).toBeCloseTo(exact[k].value, 12);
      expect(x.ci![1] - x.ci![0]).toBeCloseTo(0, 12);
      expect(x.bounded).toBe(true);
    });
    // Nothing known but the two ends: each pair somewhere in [-2, 2] less what v(∅) and v(all) pin down.
    const known = (mask: number) => (mask === 0 || mask === 2 ** n - 1 ? table[mask] : undefined);
    for (const x of boundedInteractions(names, [0, 1], known)) {
      expect(x.ci![0]).toBeGreaterThanOrEqual(-2);
      expect(x.ci![1]).toBeLessThanOrEqual(2);
      expect(x.ci![1] - x.ci![0]).toBeCloseTo(4 - 2 / (n - 1), 12);
    }
    // Half the coalitions known: the exact value lies within every pair's bounds, and both ends are
    // reached by filling the unknown values with the range's ends (so the bounds are sharp).
    const half = new Set(Array.from({ length: 2 ** n }, (_, m) => m).filter(() => rng() < 0.5));
    const partial = boundedInteractions(names, [0, 1], (mask) => (half.has(mask) ? table[mask] : undefined));
    partial.forEach((x, k) => {
      expect(exact[k].value).toBeGreaterThanOrEqual(x.ci![0] - 1e-12);
      expect(exact[k].value).toBeLessThanOrEqual(x.ci![1] + 1e-12);
      expect(x.value).toBeCloseTo((x.ci![0] + x.ci![1]) / 2, 12);
      const [i, j] = [names.indexOf(x.steps[0]), names.indexOf(x.steps[1])];
      // The highest: unknown coalitions holding both or neither at 1, holding one at 0.
      const highest = table.map((v, mask) => (half.has(mask) ? v : ((mask >> i) & 1) === ((mask >> j) & 1) ? 1 : 0));
      const lowest = table.map((v, mask) => (half.has(mask) ? v : ((mask >> i) & 1) === ((mask >> j) & 1) ? 0 : 1));
      expect(exactInteractionsFromTable(highest, n, names)[k].value).toBeCloseTo(x.ci![1], 12);
      expect(exactInteractionsFromTable(lowest, n, names)[k].value).toBeCloseTo(x.ci![0], 12);
    });
    expect(() => boundedInteractions(playerNames(EXACT_INTERACTION_MAX_PLAYERS + 1), [0, 1], () => 0)).toThrow(RangeError);
  });

  it('closed forms: 1 for a unanimity pair, -1 for substitutes, 0 in an additive game', () => {
    const n = 5;
    const names = playerNames(n);
    const both = exactInteractionsFromTable(tableOf(n, (m) => (m.includes(1) && m.includes(3) ? 1 : 0)), n, names);
    expect(value(both, 'p1', 'p3')).toBeCloseTo(1, 12);
    expect(value(both, 'p0', 'p1')).toBeCloseTo(0, 12);
    const either = exactInteractionsFromTable(tableOf(n, (m) => (m.includes(0) || m.includes(4) ? 1 : 0)), n, names);
    expect(value(either, 'p0', 'p4')).toBeCloseTo(-1, 12);
    const additive = exactInteractionsFromTable(tableOf(n, (m) => m.reduce((a, i) => a + 0.1 * (i + 1), 0)), n, names);
    for (const x of additive) expect(Math.abs(x.value)).toBeLessThan(1e-12);
    expect(additive).toHaveLength((n * (n - 1)) / 2);
  });

  it('refund mechanism A (planner or retriever or writer and reviewer): planner x retriever -2/3, writer x reviewer 1/3', () => {
    const r = analyzeCase(refundPipeline('A'), { id: 'refund', inputs: { question: 'refund window?' } }, { ...DEFAULT_SETTINGS, method: 'exact', interactions: true });
    // By hand: S within {writer, reviewer} with weights 1/3, 1/6, 1/6, 1/3; the planner x retriever
    // term is -1 unless S repairs already (S = both), the writer x reviewer term 1 only for S empty.
    expect(value(r.interactions!, 'planner', 'retriever')).toBeCloseTo(-2 / 3, 12);
    expect(value(r.interactions!, 'writer', 'reviewer')).toBeCloseTo(1 / 3, 12);
    expect(analyzeCase(refundPipeline('A'), { id: 'refund', inputs: { question: 'q' } }, { ...DEFAULT_SETTINGS, method: 'exact' }).interactions).toBeUndefined();
  });

  it('sampled estimates converge to the exact values and count their samples', () => {
    const n = 6;
    const values = randomTable(n, seededRng(8));
    const exact = exactInteractionsFromTable(values, n, playerNames(n));
    const sampled = sampledInteractions(new TableGameAdapter(tableGame(values, n)), seededRng(2), 30_000);
    sampled.forEach((x, k) => {
      expect(x.steps).toEqual(exact[k].steps);
      expect(Math.abs(x.value - exact[k].value)).toBeLessThan(0.03);
      // A pair stands together in 2/n of the orders.
      expect(Math.abs(x.samples! / 30_000 - 2 / n)).toBeLessThan(0.02);
    });
  });

  it('above 12 players they are sampled, and exactly right on games whose pair terms are constant', () => {
    const n = EXACT_INTERACTION_MAX_PLAYERS + 1;
    const values = new Float64Array(2 ** n);
    for (let m = 0; m < values.length; m++) values[m] = (m & 3) === 3 ? 1 : 0; // unanimity on p0, p1
    const r = analyzeTableGame(tableGame(values, n), { ...DEFAULT_SETTINGS, method: 'mc', stop: 'budget', maxPermutations: 5, interactions: true });
    expect(r.interactions).toHaveLength((n * (n - 1)) / 2);
    expect(value(r.interactions!, 'p0', 'p1')).toBe(1);
    for (const x of r.interactions!) if (!(x.steps[0] === 'p0' && x.steps[1] === 'p1')) expect(x.value).toBe(0);
    expect(r.interactions!.every((x) => x.samples! > 0)).toBe(true);
    // Constant pair terms: each interval closes in on its value and never loses it.
    for (const x of r.interactions!) expect(x.ci![0] <= x.value && x.value <= x.ci![1] && x.ci![1] - x.ci![0] < 4).toBe(true);
    expect(pairInteractions(new TableGameAdapter(tableGame(new Float64Array(2), 1)), seededRng(1))).toEqual([]);
  });

  it('sampled intervals cover the exact interactions of all pairs at once in >= 1 - delta of runs', () => {
    const n = 5;
    const delta = 0.2;
    const values = randomTable(n, seededRng(31));
    const exact = exactInteractionsFromTable(values, n, playerNames(n));
    const runs = 60;
    let covered = 0;
    for (let seed = 1; seed <= runs; seed++) {
      const sampled = sampledInteractions(new TableGameAdapter(tableGame(values, n, 'g', [0, 1])), seededRng(seed), 400, delta);
      if (sampled.every((x, k) => x.ci![0] <= exact[k].value && exact[k].value <= x.ci![1])) covered++;
      // Intervals that say something: narrower than the [-2, 2] a pair term can span.
      expect(sampled.every((x) => x.ci![1] - x.ci![0] < 3)).toBe(true);
    }
    expect(covered / runs).toBeGreaterThanOrEqual(1 - delta);
  });

  it('sampled interactions run on more than 52 players (bigint coalitions) and stay exact on a unanimity pair', () => {
    const n = 64;
    const game = { players: playerNames(n), range: [0, 1] as const, cost: () => 0, value: (m: number | bigint) => ((BigInt(m) & 3n) === 3n ? 1 : 0) };
    const xs = sampledInteractions(game, seededRng(4), 200);
    expect(xs).toHaveLength((n * (n - 1)) / 2);
    expect(value(xs, 'p0', 'p1')).toBe(1);
    expect(value(xs, 'p2', 'p63')).toBe(0);
  });
});
