import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exactShapleyFromTable } from './exact.ts';
import { has } from '../testing/games.ts';

/** A random game: n in 2..7 and 2^n values in [-5, 5]. */
const gameArb = fc.integer({ min: 2, max: 7 }).chain((n) =>
  fc.tuple(fc.constant(n), fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 2 ** n, maxLength: 2 ** n })),
);

/** The coalition with players i and j exchanged. */
function swap(mask: number, i: number, j: number): number {
  if (has(mask, i) === has(mask, j)) return mask;
  return mask + (has(mask, i) ? -(2 ** i) + 2 ** j : 2 ** i - 2 ** j);
}

const params = { numRuns: 80 };

describe('Shapley axioms on random games (n = 2..7)', () => {
  it('efficiency: the values sum to v(all) - v(empty)', () => {
    fc.assert(
      fc.property(gameArb, ([n, v]) => {
        const phi = exactShapleyFromTable(v, n);
        expect(Math.abs(phi.reduce((a, b) => a + b, 0) - (v[2 ** n - 1] - v[0]))).toBeLessThan(1e-9);
      }),
      params,
    );
  });

  it('symmetry: two interchangeable players get equal values', () => {
    fc.assert(
      fc.property(gameArb, fc.nat(), fc.nat(), ([n, raw], a, b) => {
        const i = a % n;
        const j = (i + 1 + (b % (n - 1))) % n;
        // Symmetrise: v(S) = (raw(S) + raw(S with i and j swapped)) / 2.
        const v = raw.map((x, m) => (x + raw[swap(m, i, j)]) / 2);
        const phi = exactShapleyFromTable(v, n);
        expect(Math.abs(phi[i] - phi[j])).toBeLessThan(1e-9);
      }),
      params,
    );
  });

  it('null player: a player who never changes v gets 0', () => {
    fc.assert(
      fc.property(gameArb, fc.nat(), ([n, raw], a) => {
        const k = a % n;
        const v = raw.map((_, m) => raw[has(m, k) ? m - 2 ** k : m]);
        const phi = exactShapleyFromTable(v, n);
        expect(Math.abs(phi[k])).toBeLessThan(1e-12);
      }),
      params,
    );
  });

  it('additivity: phi(v + w) = phi(v) + phi(w)', () => {
    fc.assert(
      fc.property(gameArb, fc.integer({ min: 0, max: 2 ** 31 }), ([n, v], seed) => {
        let x = seed;
        const w = v.map(() => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32) * 4 - 2);
        const sum = exactShapleyFromTable(v.map((vi, m) => vi + w[m]), n);
        const pv = exactShapleyFromTable(v, n);
        const pw = exactShapleyFromTable(w, n);
        sum.forEach((s, i) => expect(Math.abs(s - (pv[i] + pw[i]))).toBeLessThan(1e-9));
      }),
      params,
    );
  });
});
