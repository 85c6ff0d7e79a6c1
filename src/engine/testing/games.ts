import type { Game, Rng } from '../types.ts';
import type { TableGame } from '../table-game.ts';
import { seededRng } from '../rng.ts';
import { exactShapleyFromTable } from '../shapley/exact.ts';

/** Whether player i is in coalition mask. */
export function has(mask: number, i: number): boolean {
  return Math.floor(mask / 2 ** i) % 2 === 1;
}

/** The value table of a characteristic function given on player index sets. */
export function tableOf(n: number, v: (members: number[]) => number): Float64Array {
  const out = new Float64Array(2 ** n);
  for (let mask = 0; mask < out.length; mask++) {
    const members: number[] = [];
    for (let i = 0; i < n; i++) if (has(mask, i)) members.push(i);
    out[mask] = v(members);
  }
  return out;
}

export function playerNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `p${i}`);
}

export function tableGame(values: Float64Array, n: number, id = 'g', range?: [number, number]): TableGame {
  return { id, players: playerNames(n), values, ...(range ? { range } : {}) };
}

/** A random game with v in [0, 1] from a seeded generator. */
export function randomTable(n: number, rng: Rng): Float64Array {
  const out = new Float64Array(2 ** n);
  for (let m = 0; m < out.length; m++) out[m] = rng();
  return out;
}

/** A random game in [0, 1] from a seed, with its exact Shapley values: what coverage tests measure against. */
export function randomGame(n: number, seed: number): { values: Float64Array; exact: number[] } {
  const values = randomTable(n, seededRng(seed));
  return { values, exact: exactShapleyFromTable(values, n) };
}

/**
 * Shapley values by their permutation definition (an implementation independent of the
 * engine's subset-weighted sum): the average, over all n! orders, of each player's marginal
 * when it joins the players before it.
 */
export function shapleyByAllOrders(values: ArrayLike<number>, n: number): number[] {
  const phi = new Array<number>(n).fill(0);
  let orders = 0;
  const order: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const visit = (): void => {
    if (order.length === n) {
      let mask = 0;
      for (const p of order) {
        phi[p] += values[mask + 2 ** p] - values[mask];
        mask += 2 ** p;
      }
      orders++;
      return;
    }
    for (let p = 0; p < n; p++) {
      if (used[p]) continue;
      used[p] = true;
      order.push(p);
      visit();
      order.pop();
      used[p] = false;
    }
  };
  visit();
  return phi.map((x) => x / orders);
}

/**
 * A game read from a table whose step cost is the number of distinct coalitions evaluated so
 * far (each new coalition costs 1), so a budget stop depends on the sampled orders.
 */
export class MeteredTableGame implements Game {
  readonly players: readonly string[];
  readonly range: readonly [number, number];
  private readonly seen = new Set<number>();

  constructor(
    private readonly values: Float64Array,
    n: number,
    range: readonly [number, number] = [0, 1],
  ) {
    this.players = playerNames(n);
    this.range = range;
  }

  value(mask: number): number {
    this.seen.add(mask);
    return this.values[mask];
  }

  cost(): number {
    return this.seen.size;
  }
}

/**
 * A game whose every lookup (cached or not) costs 1 + v(S): the spent cost, and so the time a
 * budget stop happens, depends on the values sampled so far (an adversarial stopping time).
 */
export class ValueCostGame implements Game {
  readonly players: readonly string[];
  readonly range: readonly [number, number] = [0, 1];
  private spent = 0;

  constructor(
    private readonly values: Float64Array,
    n: number,
  ) {
    this.players = playerNames(n);
  }

  value(mask: number): number {
    this.spent += 1 + this.values[mask];
    return this.values[mask];
  }

  cost(): number {
    return this.spent;
  }
}
