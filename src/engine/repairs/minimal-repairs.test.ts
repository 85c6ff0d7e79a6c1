import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { minimalRepairs } from './minimal-repairs.ts';
import { causalConsensus } from './causal-consensus.ts';

/** A game from a full value table, counting how often each coalition is asked for (no memo). */
function tableGame(values: readonly number[], n: number) {
  const asked = new Map<number, number>();
  return {
    players: Array.from({ length: n }, (_, i) => `s${i}`),
    value(mask: number | bigint) {
      const m = Number(mask);
      asked.set(m, (asked.get(m) ?? 0) + 1);
      return values[m];
    },
    asked,
  };
}

/** Brute force: every mask that succeeds while none of its proper subsets does. */
function bruteForce(values: readonly number[], n: number, success: number, maxSize = n): number[] {
  const out: number[] = [];
  const popcount = (m: number) => m.toString(2).split('1').length - 1;
  for (let m = 0; m < 2 ** n; m++) {
    if (popcount(m) > maxSize || values[m] < success) continue;
    let minimal = true;
    for (let sub = (m - 1) & m; ; sub = (sub - 1) & m) {
      if (sub !== m && values[sub] >= success) minimal = false;
      if (sub === 0) break;
    }
    if (minimal) out.push(m);
  }
  return out;
}

const maskOf = (players: readonly number[]) => players.reduce((m, i) => m | (1 << i), 0);

describe('minimal repairs', () => {
  it('a known pipeline: a alone, or b and c together; a superset of a is not listed', () => {
    // players a, b, c: v = 1 when a is fixed or both b and c are.
    const v = (m: number) => ((m & 1) !== 0 || (m & 6) === 6 ? 1 : 0);
    const g = tableGame(Array.from({ length: 8 }, (_, m) => v(m)), 3);
    const search = minimalRepairs(g, 1, 3, [5, 1, 1]);
    expect(search.repairs.map((r) => r.players)).toEqual([[0], [1, 2]]);
    expect(search.repairs.map((r) => r.cost)).toEqual([5, 2]);
    expect(search.complete).toBe(true);
    // {a,b}, {a,c} and {a,b,c} contain the repair {a}: never asked for.
    expect([...g.asked.keys()].sort()).toEqual([0, 1, 2, 4, 6]);
  });

  it('orders by size, then cost, then player order', () => {
    // Every single fix repairs: costs decide the order.
    const g = tableGame([0, 1, 1, 1, 1, 1, 1, 1], 3);
    expect(minimalRepairs(g, 1, 3, [3, 1, 2]).repairs.map((r) => r.players)).toEqual([[1], [2], [0]]);
    expect(minimalRepairs(g, 1, 3).repairs.map((r) => r.players)).toEqual([[0], [1], [2]]);
  });

  it('a case already at success has the empty repair; an unrepairable one has none', () => {
    expect(minimalRepairs(tableGame([1, 1], 1), 1, 1).repairs).toEqual([{ players: [], value: 1, cost: 0 }]);
    expect(minimalRepairs(tableGame([0, 0, 0, 0.5], 2), 1, 2).repairs).toEqual([]);
  });

  it('property: on random games every reported set succeeds, no proper subset does, none is missing, none asked twice', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            values: fc.array(fc.constantFrom(0, 0.25, 0.5, 1), { minLength: 2 ** n, maxLength: 2 ** n }),
            costs: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: n, maxLength: n }),
            success: fc.constantFrom(0.5, 1),
            size: fc.integer({ min: 0, max: n }),
          }),
        ),
        ({ n, values, costs, success, size }) => {
          const vals = [Math.min(values[0], success / 4), ...values.slice(1)]; // the case fails as run
          const g = tableGame(vals, n);
          const search = minimalRepairs(g, success, size, costs);
          const got = search.repairs.map((r) => maskOf(r.players)).sort((a, b) => a - b);
          expect(got).toEqual(bruteForce(vals, n, success, size));
          for (const r of search.repairs) {
            expect(r.value).toBe(vals[maskOf(r.players)]);
            expect(r.cost).toBe(r.players.reduce((s, i) => s + costs[i], 0));
          }
          for (let k = 1; k < search.repairs.length; k++) {
            const [a, b] = [search.repairs[k - 1], search.repairs[k]];
            expect(a.players.length < b.players.length || (a.players.length === b.players.length && a.cost <= b.cost)).toBe(true);
          }
          for (const count of g.asked.values()) expect(count).toBe(1);
          expect(search.lookups).toBe(g.asked.size);
          expect(search.complete).toBe(size === n);
        },
      ),
      { numRuns: 400, seed: 24 },
    );
  });
});

describe('causal consensus', () => {
  it('counts the cases whose repairs include each step, with a Wilson interval (python3 values)', () => {
    const c = causalConsensus(['a', 'b', 'c'], [[['a'], ['b', 'c']], [['a']], [['b']], []]);
    expect(c.map((s) => [s.cases, s.of])).toEqual([[2, 4], [2, 4], [1, 4]]);
    expect(c[0].share).toBe(0.5);
    // Wilson 95% of 2/4: python3 gives (0.1500389877440198, 0.8499610122559802).
    expect(c[0].ci[0]).toBeCloseTo(0.1500389877440198, 12);
    expect(c[0].ci[1]).toBeCloseTo(0.8499610122559802, 12);
    expect(causalConsensus(['a'], [])[0]).toEqual({ step: 'a', cases: 0, of: 0, share: 0, ci: [0, 1] });
  });
});
