import type { AttributedCaseResult, CaseRepair } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { expectFiniteNumber, expectInteger, expectObject, type JsonObject } from '../formats/validate.ts';
import { arrayOf, expectBoolean, expectDataRecord, expectNonNegative, expectOneOf, optionalField, requiredField } from './validate-fields.ts';

/** A case's minimal repairs as stored (engine/types.ts, CaseRepair), each step one of the case's players. */
function validateRepair(players: readonly string[]) {
  return (value: unknown, path: string): CaseRepair => {
    const object = expectObject(value, path);
    return {
      fixed: requiredField(object, 'fixed', path, (v, p) => arrayOf(v, p, (x, q) => expectOneOf(x, players, q))),
      value: requiredField(object, 'value', path, expectFiniteNumber),
      cost: requiredField(object, 'cost', path, expectNonNegative),
    };
  };
}

/** The repair fields of a stored failing case (absent unless the analysis searched for repairs). */
export function validateRepairFields(object: JsonObject, path: string, players: readonly string[]): Pick<AttributedCaseResult, 'repairs' | 'repairSearch' | 'repairedOutputs'> {
  const repairs = optionalField(object, 'repairs', path, (v, p) => arrayOf(v, p, validateRepair(players)));
  const repairSearch = optionalField(object, 'repairSearch', path, (v, p) => {
    const o = expectObject(v, p);
    const maxSize = requiredField(o, 'maxSize', p, expectInteger);
    if (maxSize < 0) throw new FormatError(`${p}.maxSize`, `expected an integer >= 0, got ${maxSize}`);
    return { success: requiredField(o, 'success', p, expectFiniteNumber), maxSize, complete: requiredField(o, 'complete', p, expectBoolean) };
  });
  const repairedOutputs = optionalField(object, 'repairedOutputs', path, expectDataRecord);
  return {
    ...(repairs !== undefined && { repairs }),
    ...(repairSearch !== undefined && { repairSearch }),
    ...(repairedOutputs !== undefined && { repairedOutputs }),
  };
}
