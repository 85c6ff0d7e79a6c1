/**
 * A stored failure's minimal repairs, checked against what the file itself holds (docs/security.md,
 * "Files are untrusted"): a repair names each step once, reaches the success level it was searched
 * with, contains no other repair, and the empty set repairs only a case already at success. With a
 * complete coalition table the repairs are recomputed from it (the search is exact on a complete
 * table), so a repair that is not minimal, not a repair, or left out is refused, naming the field.
 */
import type { AttributedCaseResult, CaseResult } from '../engine/types.ts';
import { minimalRepairs } from '../engine/repairs/minimal-repairs.ts';
import { FormatError } from '../formats/format-error.ts';
import { childPath, indexPath } from '../formats/json-path.ts';

const TOLERANCE = 1e-9;

const setText = (steps: readonly string[]) => `{${steps.join(', ')}}`;

export function checkStoredRepairs(result: CaseResult, path: string): void {
  if (result.error !== undefined || result.repairs === undefined) return;
  const r = result as AttributedCaseResult;
  const repairs = result.repairs;
  const repairsPath = childPath(path, 'repairs');
  const at = (k: number) => indexPath(repairsPath, k);
  const masks = repairs.map((repair, k) => {
    const seen = new Set<string>();
    for (const step of repair.fixed) {
      if (seen.has(step)) throw new FormatError(childPath(at(k), 'fixed'), `names step ${JSON.stringify(step)} twice`);
      seen.add(step);
    }
    return new Set(repair.fixed);
  });
  const search = r.repairSearch;
  if (search === undefined) return;
  masks.forEach((set, k) => {
    const repair = repairs[k];
    if (repair.fixed.length > search.maxSize) throw new FormatError(childPath(at(k), 'fixed'), `${setText(repair.fixed)} is larger than the search went (repairSearch.maxSize ${search.maxSize})`);
    if (repair.value < search.success - TOLERANCE) throw new FormatError(childPath(at(k), 'value'), `${repair.value} does not reach the success level ${search.success} (repairSearch.success): not a repair`);
    if (set.size === 0 && r.vEmpty < search.success - TOLERANCE) throw new FormatError(at(k), `the empty set is no repair of a case whose v(none) = ${r.vEmpty} is below the success level ${search.success}`);
    masks.forEach((other, j) => {
      if (j !== k && other.size < set.size && [...other].every((s) => set.has(s))) throw new FormatError(at(k), `${setText(repair.fixed)} is not minimal: it contains the repair ${setText(repairs[j].fixed)} (repairs[${j}])`);
      if (j < k && other.size === set.size && [...other].every((s) => set.has(s))) throw new FormatError(at(k), `${setText(repair.fixed)} is listed twice (also repairs[${j}])`);
    });
  });
  // With every coalition's value stored, the minimal repairs follow from the table: recomputed.
  const n = r.players.length;
  const table = r.coalitions;
  if (!table || table.length !== 2 ** n) return;
  const index = new Map(r.players.map((p, i) => [p, i]));
  const values = new Float64Array(2 ** n).fill(NaN);
  for (const c of table) values[c.fixed.reduce((m, p) => m | (1 << index.get(p)!), 0)] = c.value;
  if (values.some(Number.isNaN)) return;
  const maskOf = (steps: Iterable<string>) => [...steps].reduce((m, p) => m | (1 << index.get(p)!), 0);
  const expected = minimalRepairs({ players: r.players, value: (mask) => values[Number(mask)] }, search.success, search.maxSize);
  const expectedMasks = new Set(expected.repairs.map((x) => x.players.reduce((m, i) => m | (1 << i), 0)));
  masks.forEach((set, k) => {
    const mask = maskOf(set);
    const stored = repairs[k];
    if (Math.abs(values[mask] - stored.value) > TOLERANCE) throw new FormatError(childPath(at(k), 'value'), `${stored.value} is not the coalition table's value of ${setText(stored.fixed)}, ${values[mask]}`);
    if (!expectedMasks.has(mask)) throw new FormatError(at(k), `${setText(stored.fixed)} is not a minimal repair by the coalition table (success level ${search.success}): a smaller set already reaches it`);
  });
  const storedMasks = new Set(masks.map(maskOf));
  const dropped = expected.repairs.find((x) => !storedMasks.has(x.players.reduce((m, i) => m | (1 << i), 0)));
  if (dropped) throw new FormatError(repairsPath, `leaves out the minimal repair ${setText(dropped.players.map((i) => r.players[i]))} (v = ${dropped.value}), which the coalition table gives at the success level ${search.success}`);
}
