import type { AttributedCaseResult } from '../types.ts';
import { minimalRepairs } from './minimal-repairs.ts';
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
  const search = minimalRepairs({ players: r.players, value: (mask) => values[Number(mask)] }, success, n);
  return {
    repairs: search.repairs.map((x) => ({ fixed: x.players.map((i) => r.players[i]), value: x.value, cost: x.cost })),
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
