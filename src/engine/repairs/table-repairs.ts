import type { AttributedCaseResult } from '../types.ts';
import { minimalRepairs } from './minimal-repairs.ts';

/**
 * A failure's repair fields read off its stored coalition table, for results analysed without a
 * repair search (sessions saved earlier, the page's exact runs): exact when the table lists every
 * coalition, otherwise null (a sampled table has gaps a search would have to replay). The table
 * has no fix costs, so sets of one size keep player order.
 */
export function repairsFromTable(r: AttributedCaseResult, success: number): Pick<AttributedCaseResult, 'repairs' | 'repairSearch'> | null {
  const n = r.players.length;
  const table = r.coalitions;
  if (!table || table.length !== 2 ** n) return null;
  const index = new Map(r.players.map((p, i) => [p, i]));
  const values = new Float64Array(2 ** n).fill(NaN);
  for (const c of table) values[c.fixed.reduce((m, p) => m | (1 << index.get(p)!), 0)] = c.value;
  if (values.some(Number.isNaN)) return null;
  const search = minimalRepairs({ players: r.players, value: (mask) => values[Number(mask)] }, success, n);
  return {
    repairs: search.repairs.map((x) => ({ fixed: x.players.map((i) => r.players[i]), value: x.value, cost: x.cost })),
    repairSearch: { success, maxSize: n, complete: true },
  };
}
