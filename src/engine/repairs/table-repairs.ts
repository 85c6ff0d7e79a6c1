import type { AttributedCaseResult } from '../types.ts';
import { comparePlayers, type Repair } from './minimal-repairs.ts';
import { packedTableOf } from '../packed-coalitions.ts';

/**
 * A failure's repair fields read off its stored coalition table, for results analysed without a
 * repair search (sessions saved earlier, the page's exact runs): exact when the table lists every
 * coalition, otherwise null (a sampled table has gaps a search would have to replay). The table
 * has no fix costs, so sets of one size keep player order.
 */
export function repairsFromTable(r: AttributedCaseResult, success: number): Pick<AttributedCaseResult, 'repairs' | 'repairSearch'> | null {
  const values = tableValues(r);
  if (values === null) return null;
  const n = r.players.length;
  return {
    repairs: repairsOfTable(values, n, success).map((x) => ({ fixed: x.players.map((i) => r.players[i]), value: x.value, cost: x.cost })),
    repairSearch: { success, maxSize: n, complete: true },
  };
}

/**
 * v(S) by mask (bit i: players[i] fixed) when the table lists every coalition, else null. A table
 * still packed is read as it is (its masks use the same bits): unpacking the 256 coalitions of an
 * 8-step case into objects, for every failure the page's batch view looked at, was a visible share
 * of the page's main thread during an analysis (bench/README.md, "Speed round 4").
 */
function tableValues(r: AttributedCaseResult): Float64Array | null {
  const n = r.players.length;
  const values = new Float64Array(2 ** n).fill(NaN);
  const packed = packedTableOf(r);
  if (packed !== undefined) {
    if (packed.masks.length !== 2 ** n) return null;
    for (let k = 0; k < packed.masks.length; k++) values[packed.masks[k]] = packed.values[k];
  } else {
    const table = r.coalitions;
    if (!table || table.length !== 2 ** n) return null;
    const index = new Map(r.players.map((p, i) => [p, i]));
    for (const c of table) values[c.fixed.reduce((m, p) => m | (1 << index.get(p)!), 0)] = c.value;
  }
  return values.some(Number.isNaN) ? null : values;
}

/**
 * minimalRepairs' answer on a complete table (no fix costs: a set's cost is its size), in one
 * pass over the masks in increasing order instead of a search of every combination with a
 * superset test against each repair found: the minimal sets reaching `success` are those that
 * reach it while no set one player smaller reaches it or has a subset that does. The page reads
 * the repairs of every failure off its table (bench/README.md, "Speed round 4").
 */
export function repairsOfTable(values: Float64Array, n: number, success: number): Repair[] {
  if (values[0] >= success) return [{ players: [], value: values[0], cost: 0 }];
  const size = 2 ** n;
  // 1: the set reaches success; 2: a proper subset of it does.
  const state = new Uint8Array(size);
  const repairs: Repair[] = [];
  for (let mask = 1; mask < size; mask++) {
    let below = 0;
    for (let i = 0; i < n && below === 0; i++) if (mask & (1 << i) && state[mask & ~(1 << i)] !== 0) below = 2;
    if (below !== 0) state[mask] = below;
    else if (values[mask] >= success) {
      state[mask] = 1;
      const players: number[] = [];
      for (let i = 0; i < n; i++) if (mask & (1 << i)) players.push(i);
      repairs.push({ players, value: values[mask], cost: players.length });
    }
  }
  return repairs.sort((a, b) => a.players.length - b.players.length || comparePlayers(a.players, b.players));
}
