import type { AnalysisSettings } from '../engine/types.ts';
import { METHODS, MODES, RADII, STOP_RULES } from '../engine/setting-choices.ts';
import { ESTIMATOR_NAMES, LEGACY_ESTIMATOR } from '../engine/shapley/registry.ts';
import { FormatError } from '../formats/format-error.ts';
import { expectFiniteNumber, expectInteger, expectObject, expectString } from '../formats/validate.ts';
import { expectBoolean, expectLimit, expectOneOf, optionalField, recordOf, requiredField } from './validate-fields.ts';


function expectPositiveInteger(value: unknown, path: string): number {
  const number = expectInteger(value, path);
  if (number < 1) throw new FormatError(path, `expected an integer >= 1, got ${number}`);
  return number;
}

/** The failure probability of the simultaneous intervals: strictly between 0 and 1. */
function expectProbability(value: unknown, path: string): number {
  const number = expectFiniteNumber(value, path);
  if (!(number > 0 && number < 1)) throw new FormatError(path, `expected a number between 0 and 1 (exclusive), got ${number}`);
  return number;
}

/** A tie tolerance: from 0 (off) to 1. */
function expectTolerance(value: unknown, path: string): number {
  const number = expectFiniteNumber(value, path);
  if (!(number >= 0 && number <= 1)) throw new FormatError(path, `expected a number from 0 to 1, got ${number}`);
  return number;
}

/** The analysis settings a session was run with, rebuilt from untrusted JSON. */
export function validateSettings(value: unknown, path: string): AnalysisSettings {
  const object = expectObject(value, path);
  const fixChoice = optionalField(object, 'fixChoice', path, (v, p) => recordOf(v, p, expectString));
  const interactions = optionalField(object, 'interactions', path, expectBoolean);
  const models = optionalField(object, 'models', path, (v, p) => recordOf(v, p, expectString));
  const repairs = optionalField(object, 'repairs', path, validateRepairSettings);
  const modelParams = optionalField(object, 'modelParams', path, (v, p) => recordOf(v, p, (x, q) => recordOf(x, q, (y) => y)));
  const tieTolerance = optionalField(object, 'tieTolerance', path, expectTolerance);
  return {
    mode: requiredField(object, 'mode', path, (v, p) => expectOneOf(v, MODES, p)),
    worlds: requiredField(object, 'worlds', path, expectPositiveInteger),
    method: requiredField(object, 'method', path, (v, p) => expectOneOf(v, METHODS, p)),
    delta: requiredField(object, 'delta', path, expectProbability),
    stop: requiredField(object, 'stop', path, (v, p) => expectOneOf(v, STOP_RULES, p)),
    width: requiredField(object, 'width', path, expectFiniteNumber),
    // Infinity means "no budget"; JSON writes it as null.
    budget: requiredField(object, 'budget', path, expectLimit),
    maxPermutations: requiredField(object, 'maxPermutations', path, expectLimit),
    radius: requiredField(object, 'radius', path, (v, p) => expectOneOf(v, RADII, p)),
    // Sessions saved before the estimator registry ran the permutation estimator, the only one then.
    estimator: optionalField(object, 'estimator', path, (v, p) => expectOneOf(v, ESTIMATOR_NAMES, p)) ?? LEGACY_ESTIMATOR,
    seed: requiredField(object, 'seed', path, expectFiniteNumber),
    ...(interactions !== undefined && { interactions }),
    ...(fixChoice !== undefined && { fixChoice }),
    ...(models !== undefined && { models }),
    ...(repairs !== undefined && { repairs }),
    ...(modelParams !== undefined && { modelParams }),
    ...(tieTolerance !== undefined && { tieTolerance }),
  };
}

/** The minimal-repair search settings: a set size of at least 1 and, optionally, the success level. */
function validateRepairSettings(value: unknown, path: string): NonNullable<AnalysisSettings['repairs']> {
  const object = expectObject(value, path);
  const success = optionalField(object, 'success', path, expectFiniteNumber);
  return { size: requiredField(object, 'size', path, expectPositiveInteger), ...(success !== undefined && { success }) };
}
