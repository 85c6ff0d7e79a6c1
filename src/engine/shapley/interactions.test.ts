import { describe, expect, it } from 'vitest';
import { exactInteractionsFromTable, pairInteractions, sampledInteractions, EXACT_INTERACTION_MAX_PLAYERS } from './interactions.ts';
import { TableGameAdapter, analyzeTableGame } from '../table-game.ts';
import { analyzeCase } from '../analyze.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';
import { seededRng } from '../rng.ts';
import { playerNames, randomTable, tableGame, tableOf } from '../testing/games.ts';
import { refundPipeline } from '../testing/refund.ts';
import type { PairInteraction } from '../types.ts';

const value = (xs: PairInteraction[], a: string, b: string) => xs.find((x) => x.steps[0] === a && x.steps[1] === b)!.value;

describe('pairwise Shapley interaction index', () => {
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
