import type { CaseRepair, ResultValueTypes } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { expectFiniteNumber, expectInteger, expectObject } from '../formats/validate.ts';
import { arrayOf, expectBoolean, expectNonNegative, expectOneOf, requiredField } from './validate-fields.ts';

/** One minimal repair as stored (engine/types.ts, CaseRepair), each step one of the case's players. */
function validateRepair(value: unknown, path: string, players: readonly string[]): CaseRepair {
  const object = expectObject(value, path);
  return {
    fixed: requiredField(object, 'fixed', path, (v, p) => arrayOf(v, p, (x, q) => expectOneOf(x, players, q))),
    value: requiredField(object, 'value', path, expectFiniteNumber),
    cost: requiredField(object, 'cost', path, expectNonNegative),
  };
}

/** A stored failing case's minimal repairs (present only when the analysis searched for repairs). */
export function validateRepairs(value: unknown, path: string, players: readonly string[]): CaseRepair[] {
  return arrayOf(value, path, (v, p) => validateRepair(v, p, players));
}

/** How a stored case's repairs were searched. */
export function validateRepairSearch(value: unknown, path: string): ResultValueTypes['repairSearch'] {
  const o = expectObject(value, path);
  const maxSize = requiredField(o, 'maxSize', path, expectInteger);
  if (maxSize < 0) throw new FormatError(`${path}.maxSize`, `expected an integer >= 0, got ${maxSize}`);
  return { success: requiredField(o, 'success', path, expectFiniteNumber), maxSize, complete: requiredField(o, 'complete', path, expectBoolean) };
}
