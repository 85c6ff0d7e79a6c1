import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exactShapleyFromTable, popcountTable } from './exact.ts';
import { analyzeTableGame } from '../table-game.ts';
import { analyzeCase } from '../analyze.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';
import type { AnalysisSettings } from '../types.ts';
import { refundPipeline } from '../testing/refund.ts';
import { has, playerNames, randomTable, shapleyByAllOrders, tableGame, tableOf } from '../testing/games.ts';
import { seededRng } from '../rng.ts';

const exact: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact' };

describe('exact Shapley on closed-form games', () => {
  it('additive game: phi_i is player i weight', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 8 }), (w) => {
        const values = tableOf(w.length, (members) => members.reduce((a, i) => a + w[i], 0));
        exactShapleyFromTable(values, w.length).forEach((phi, i) => expect(phi).toBeCloseTo(w[i], 9));
      }),
      { numRuns: 50 },
    );
  });

  it('unanimity game on T: 1/|T| for members, 0 for the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }).chain((n) => fc.tuple(fc.constant(n), fc.subarray(Array.from({ length: n }, (_, i) => i), { minLength: 1 }))), ([n, t]) => {
        const values = tableOf(n, (members) => (t.every((i) => members.includes(i)) ? 1 : 0));
        exactShapleyFromTable(values, n).forEach((phi, i) => expect(phi).toBe(t.includes(i) ? 1 / t.length : 0));
      }),
      { numRuns: 50 },
    );
  });

  it('symmetric majority game: 1/n each', () => {
    for (const n of [3, 5, 7]) {
      const values = tableOf(n, (m) => (m.length > n / 2 ? 1 : 0));
      for (const phi of exactShapleyFromTable(values, n)) expect(phi).toBe(1 / n);
    }
  });

  it('weighted majority [3; 2, 1, 1]: 2/3, 1/6, 1/6', () => {
    // The heavy player is pivotal in 4 of the 6 orders (second or third), each light one in 1.
    const weights = [2, 1, 1];
    const values = tableOf(3, (m) => (m.reduce((a, i) => a + weights[i], 0) >= 3 ? 1 : 0));
    expect(exactShapleyFromTable(values, 3)).toEqual([2 / 3, 1 / 6, 1 / 6]);
  });

  it('glove game, one left glove and two right gloves: 2/3, 1/6, 1/6', () => {
    const left = [0];
    const values = tableOf(3, (m) => Math.min(m.filter((i) => left.includes(i)).length, m.filter((i) => !left.includes(i)).length));
    expect(exactShapleyFromTable(values, 3)).toEqual([2 / 3, 1 / 6, 1 / 6]);
  });

  it('agrees with the all-orders definition on random games (n <= 6)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 2 ** 31 }), (n, seed) => {
        const values = randomTable(n, seededRng(seed));
        const phi = exactShapleyFromTable(values, n);
        shapleyByAllOrders(values, n).forEach((ref, i) => expect(Math.abs(phi[i] - ref)).toBeLessThan(1e-12));
      }),
      { numRuns: 60 },
    );
  });

  it('refund pipeline, mechanism A: 5/12, 5/12, 1/12, 1/12 exactly', () => {
    const r = analyzeCase(refundPipeline('A'), { id: 'refund', inputs: { question: 'refund window?' } }, exact);
    expect(r.error).toBeUndefined();
    expect(r.vEmpty).toBe(0);
    expect(r.vAll).toBe(1);
    expect(r.shapley!.planner).toBe(5 / 12);
    expect(r.shapley!.retriever).toBe(5 / 12);
    expect(r.shapley!.writer).toBe(1 / 12);
    expect(r.shapley!.reviewer).toBe(1 / 12);
    expect(r.stopReason).toBe('exact');
    expect(r.ci).toBeUndefined();
    // The coalition table is the documented v: 1 iff planner or retriever or both writer and reviewer.
    for (const { fixed, value } of r.coalitions!) {
      const s = new Set(fixed);
      expect(value).toBe(s.has('planner') || s.has('retriever') || (s.has('writer') && s.has('reviewer')) ? 1 : 0);
    }
    expect(r.coalitions).toHaveLength(16);
  });

  it('refund pipeline, mechanism B: 1/3, 1/3, 0, 1/3 exactly', () => {
    const r = analyzeCase(refundPipeline('B'), { id: 'refund', inputs: { question: 'refund window?' } }, exact);
    expect(r.shapley).toEqual({ planner: 1 / 3, retriever: 1 / 3, writer: 0, reviewer: 1 / 3 });
  });

  it('n = 20 table games run exactly and are right', () => {
    const n = 20;
    const weights = Array.from({ length: n }, (_, i) => (i % 5) - 1.5 + i / 100);
    const additive = new Float64Array(2 ** n);
    for (let m = 1; m < additive.length; m++) {
      // v(m) = v(m without its lowest player) + that player's weight.
      const low = Math.log2(m & -m);
      additive[m] = additive[m - 2 ** low] + weights[low];
    }
    const r = analyzeTableGame(tableGame(additive, n, 'additive-20'), exact);
    expect(r.method).toBe('exact');
    playerNames(n).forEach((p, i) => expect(r.shapley![p]).toBeCloseTo(weights[i], 9));

    const members = [1, 4, 9, 16, 19];
    const unanimity = new Float64Array(2 ** n);
    for (let m = 0; m < unanimity.length; m++) unanimity[m] = members.every((i) => has(m, i)) ? 1 : 0;
    const u = analyzeTableGame(tableGame(unanimity, n, 'unanimity-20'), exact);
    playerNames(n).forEach((p, i) => expect(u.shapley![p]).toBeCloseTo(members.includes(i) ? 1 / 5 : 0, 12));
    expect(u.coalitions).toBeUndefined();
  });

  it('popcount table and input checks', () => {
    const t = popcountTable(5);
    for (let m = 0; m < 32; m++) expect(t[m]).toBe(m.toString(2).split('').filter((b) => b === '1').length);
    expect(() => exactShapleyFromTable(new Float64Array(7), 3)).toThrow(/7 entries/);
  });
});
