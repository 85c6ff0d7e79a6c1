import type { CaseDef } from '../engine/types.ts';
import { expectFiniteNumber, expectNonEmptyString, expectObject, expectString } from '../formats/validate.ts';
import { expectDataRecord, optionalField, recordOf, requiredField } from './validate-fields.ts';

/** One case of a session (the CaseDef of a trace file, DESIGN 4.2), rebuilt from untrusted JSON. */
export function validateCase(value: unknown, path: string): CaseDef {
  const object = expectObject(value, path);
  const id = requiredField(object, 'id', path, expectNonEmptyString);
  const inputs = requiredField(object, 'inputs', path, expectDataRecord);
  const seed = optionalField(object, 'seed', path, expectFiniteNumber);
  const observed = optionalField(object, 'observed', path, (v, p) =>
    recordOf(v, p, (perStep, stepPath) => recordOf(perStep, stepPath, expectString)),
  );
  const outputs = optionalField(object, 'outputs', path, expectDataRecord);
  const score = optionalField(object, 'score', path, expectFiniteNumber);
  return {
    id,
    inputs,
    ...(seed !== undefined && { seed }),
    ...(observed !== undefined && { observed }),
    ...(outputs !== undefined && { outputs }),
    ...(score !== undefined && { score }),
  };
}
