import { expectRequestKey, validateUsage } from './validate-usage.ts';
import type { CaseResult, Method, PairInteraction, ShapleyEstimate } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { childPath } from '../formats/json-path.ts';
import { expectFiniteNumber, expectNonEmptyString, expectObject, expectString } from '../formats/validate.ts';
import {
  arrayOf,
  expectBoolean,
  expectDataRecord,
  expectInterval,
  expectNonNegative,
  expectOneOf,
  optionalField,
  recordOf,
  requiredField,
} from './validate-fields.ts';
import { METHODS, STOP_RULES } from '../engine/setting-choices.ts';
import { ESTIMATOR_NAMES } from '../engine/shapley/registry.ts';
import { validateRepairFields } from './validate-repairs.ts';

type StopReason = NonNullable<ShapleyEstimate['stopReason']>;
/** A result names the method it ran, never 'auto'. */
const RESULT_METHODS = METHODS.filter((m): m is Method => m !== 'auto');
const STOP_REASONS: readonly StopReason[] = ['exact', 'maxPermutations', ...STOP_RULES];

type History = NonNullable<CaseResult['history']>;

function validateHistoryPoint(value: unknown, path: string): History[number] {
  const object = expectObject(value, path);
  return {
    permutations: requiredField(object, 'permutations', path, expectNonNegative),
    cost: requiredField(object, 'cost', path, expectNonNegative),
    values: requiredField(object, 'values', path, (v, p) => arrayOf(v, p, expectFiniteNumber)),
    ci: requiredField(object, 'ci', path, (v, p) => arrayOf(v, p, expectInterval)),
  };
}

function validateInteraction(value: unknown, path: string): PairInteraction {
  const object = expectObject(value, path);
  const steps = requiredField(object, 'steps', path, (v, p) => arrayOf(v, p, expectNonEmptyString));
  if (steps.length !== 2) throw new FormatError(childPath(path, 'steps'), `expected two step names, got ${steps.length}`);
  const samples = optionalField(object, 'samples', path, expectNonNegative);
  const ci = optionalField(object, 'ci', path, expectInterval);
  return {
    steps: [steps[0], steps[1]],
    value: requiredField(object, 'value', path, expectFiniteNumber),
    ...(samples !== undefined && { samples }),
    ...(ci !== undefined && { ci }),
  };
}

function validateCoalition(value: unknown, path: string): { fixed: string[]; value: number } {
  const object = expectObject(value, path);
  return {
    fixed: requiredField(object, 'fixed', path, (v, p) => arrayOf(v, p, expectString)),
    value: requiredField(object, 'value', path, expectFiniteNumber),
  };
}

/**
 * vEmpty or vAll of a case that could not be analysed: the engine records NaN there (no value was
 * measured), which JSON writes as null and IndexedDB keeps as NaN. Both read back as NaN; any
 * other value must still be a finite number.
 */
function unmeasuredValue(value: unknown, path: string): number {
  if (value === null || Number.isNaN(value)) return Number.NaN;
  return expectFiniteNumber(value, path);
}

function lastTouchValue(value: unknown, path: string): string | null {
  return value === null ? null : expectString(value, path);
}

/**
 * One analysed case (the engine's CaseResult), rebuilt from untrusted JSON. Fields the schema
 * does not know are dropped: a result only ever feeds the views, which read the known fields.
 */
export function validateCaseResult(value: unknown, path: string): CaseResult {
  const object = expectObject(value, path);
  const players = requiredField(object, 'players', path, (v, p) => arrayOf(v, p, expectNonEmptyString));
  const numbersByPlayer = (v: unknown, p: string) => recordOf(v, p, expectFiniteNumber);
  const shapley = optionalField(object, 'shapley', path, numbersByPlayer);
  const ci = optionalField(object, 'ci', path, (v, p) => recordOf(v, p, expectInterval));
  const fixAlone = optionalField(object, 'fixAlone', path, numbersByPlayer);
  const leaveOneOut = optionalField(object, 'leaveOneOut', path, numbersByPlayer);
  const resolvedAlone = optionalField(object, 'resolvedAlone', path, (v, p) => arrayOf(v, p, (x, q) => expectOneOf(x, players, q)));
  const lastTouch = optionalField(object, 'lastTouch', path, lastTouchValue);
  const stopReason = optionalField(object, 'stopReason', path, (v, p) => expectOneOf(v, STOP_REASONS, p));
  const fixable = optionalField(object, 'fixable', path, expectBoolean);
  const coalitions = optionalField(object, 'coalitions', path, (v, p) => arrayOf(v, p, validateCoalition));
  const factualOutputs = optionalField(object, 'factualOutputs', path, expectDataRecord);
  const fixedOutputs = optionalField(object, 'fixedOutputs', path, expectDataRecord);
  const history = optionalField(object, 'history', path, (v, p) => arrayOf(v, p, validateHistoryPoint));
  const mismatches = optionalField(object, 'mismatches', path, (v, p) => arrayOf(v, p, expectString));
  const error = optionalField(object, 'error', path, expectString);
  const queries = optionalField(object, 'queries', path, expectNonNegative);
  const estimator = optionalField(object, 'estimator', path, (v, p) => expectOneOf(v, ESTIMATOR_NAMES, p));
  const interactions = optionalField(object, 'interactions', path, (v, p) => arrayOf(v, p, validateInteraction));
  interactions?.forEach((x, k) =>
    x.steps.forEach((step, s) => {
      if (!players.includes(step)) throw new FormatError(`${path}.interactions[${k}].steps[${s}]`, `${JSON.stringify(step)} is not one of the case's players (${players.join(', ')})`);
    }),
  );
  const usage = optionalField(object, 'usage', path, validateUsage);
  const modelKeys = optionalField(object, 'modelKeys', path, (v, p) => arrayOf(v, p, expectRequestKey));
  // Only an errored case may lack its values (see unmeasuredValue).
  const readValue = error === undefined ? expectFiniteNumber : unmeasuredValue;
  for (const [field, record] of [['shapley', shapley], ['ci', ci], ['fixAlone', fixAlone], ['leaveOneOut', leaveOneOut]] as const) {
    if (record === undefined) continue;
    for (const key of Object.keys(record)) {
      if (!players.includes(key)) throw new FormatError(childPath(childPath(path, field), key), `${JSON.stringify(key)} is not one of the case's players (${players.join(', ')})`);
    }
  }
  const common = {
    id: requiredField(object, 'id', path, expectNonEmptyString),
    players,
    method: requiredField(object, 'method', path, (v, p) => expectOneOf(v, RESULT_METHODS, p)),
  };
  const failed = requiredField(object, 'failed', path, expectBoolean);
  const counts = {
    vEmpty: requiredField(object, 'vEmpty', path, readValue),
    vAll: requiredField(object, 'vAll', path, readValue),
    cost: requiredField(object, 'cost', path, expectNonNegative),
    evaluations: requiredField(object, 'evaluations', path, expectNonNegative),
    permutations: requiredField(object, 'permutations', path, expectNonNegative),
    ...(queries !== undefined && { queries }),
    ...(estimator !== undefined && { estimator }),
  };
  const outputs = {
    ...(factualOutputs !== undefined && { factualOutputs }),
    ...(mismatches !== undefined && { mismatches }),
  };
  const model = {
    ...(usage !== undefined && { usage }),
    ...(modelKeys !== undefined && { modelKeys }),
  };
  // The three kinds of result (engine/case-result.ts); attribution on any other kind is dropped.
  if (error !== undefined) return { ...common, failed: true, ...counts, ...outputs, error, ...model };
  if (!failed) return { ...common, failed: false, ...counts, ...outputs, ...model };
  const needed = <T>(value: T | undefined, field: string): T => {
    if (value === undefined) throw new FormatError(childPath(path, field), 'is missing: a failing case analysed without error carries its blame');
    return value;
  };
  return {
    ...common,
    failed: true,
    ...counts,
    shapley: needed(shapley, 'shapley'),
    ...(ci !== undefined && { ci }),
    fixAlone: needed(fixAlone, 'fixAlone'),
    ...(resolvedAlone !== undefined && { resolvedAlone }),
    leaveOneOut: needed(leaveOneOut, 'leaveOneOut'),
    ...(lastTouch !== undefined && { lastTouch }),
    stopReason: needed(stopReason, 'stopReason'),
    fixable: needed(fixable, 'fixable'),
    ...(coalitions !== undefined && { coalitions }),
    ...(factualOutputs !== undefined && { factualOutputs }),
    ...(fixedOutputs !== undefined && { fixedOutputs }),
    ...(history !== undefined && { history }),
    ...(interactions !== undefined && { interactions }),
    ...(mismatches !== undefined && { mismatches }),
    ...model,
    ...validateRepairFields(object, path, players),
  };
}
