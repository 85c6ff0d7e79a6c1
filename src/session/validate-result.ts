import { expectRequestKey, validateUsage } from './validate-usage.ts';
import type { CaseResult, Method, PairInteraction, ResultValueTypes, ShapleyEstimate } from '../engine/types.ts';
import { BUDGET_SKIPPED_PARTS, isResultField, RESULT_FIELD_NAMES, RESULT_FIELDS, resultFieldsOf, type ResultFieldName, type ResultFieldSpec, type ResultValueKind } from '../engine/result-fields.ts';
import { FormatError } from '../formats/format-error.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import { describeValue, expectFiniteNumber, expectNonEmptyString, expectObject, expectString, ownField, rejectUnknownFields } from '../formats/validate.ts';
import {
  arrayOf,
  expectBoolean,
  expectDataRecord,
  expectInterval,
  expectNonNegative,
  expectOneOf,
  recordOf,
  requiredField,
  optionalField,
} from './validate-fields.ts';
import { METHODS, STOP_RULES } from '../engine/setting-choices.ts';
import { ESTIMATOR_NAMES } from '../engine/shapley/registry.ts';
import { validateRepairs, validateRepairSearch } from './validate-repairs.ts';

type StopReason = NonNullable<ShapleyEstimate['stopReason']>;
/** A result names the method it ran, never 'auto'. */
const RESULT_METHODS = METHODS.filter((m): m is Method => m !== 'auto');
const STOP_REASONS: readonly StopReason[] = ['exact', 'maxPermutations', ...STOP_RULES];

type History = ResultValueTypes['history'];

function validateHistoryPoint(value: unknown, path: string): History[number] {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['permutations', 'cost', 'values', 'ci'], path);
  return {
    permutations: requiredField(object, 'permutations', path, expectNonNegative),
    cost: requiredField(object, 'cost', path, expectNonNegative),
    values: requiredField(object, 'values', path, (v, p) => arrayOf(v, p, expectFiniteNumber)),
    ci: requiredField(object, 'ci', path, (v, p) => arrayOf(v, p, expectInterval)),
  };
}

function validateInteraction(value: unknown, path: string, players: readonly string[]): PairInteraction {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['steps', 'value', 'samples', 'ci', 'bounded'], path);
  const steps = requiredField(object, 'steps', path, (v, p) => arrayOf(v, p, expectNonEmptyString));
  if (steps.length !== 2) throw new FormatError(childPath(path, 'steps'), `expected two step names, got ${steps.length}`);
  steps.forEach((step, s) => {
    if (!players.includes(step)) throw new FormatError(indexPath(childPath(path, 'steps'), s), notAPlayer(step, players));
  });
  const samples = optionalField(object, 'samples', path, expectNonNegative);
  const ci = optionalField(object, 'ci', path, expectInterval);
  // Bounds a budget left (boundedInteractions): `true` or absent, and always with the bounds.
  const bounded = optionalField(object, 'bounded', path, (v, p) => {
    if (v !== true) throw new FormatError(p, `expected true (or no field), ${describeValue(v)}`);
    return true as const;
  });
  if (bounded && ci === undefined) throw new FormatError(childPath(path, 'ci'), 'missing: a bounded interaction carries its bounds');
  return {
    steps: [steps[0], steps[1]],
    value: requiredField(object, 'value', path, expectFiniteNumber),
    ...(samples !== undefined && { samples }),
    ...(ci !== undefined && { ci }),
    ...(bounded && { bounded }),
  };
}

function validateCoalition(value: unknown, path: string): { fixed: string[]; value: number } {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['fixed', 'value'], path);
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

function notAPlayer(name: string, players: readonly string[]): string {
  return `${JSON.stringify(name)} is not one of the case's players (${players.join(', ')})`;
}

/** A record by player name, every key one of the case's players. */
function playerRecord<T>(value: unknown, path: string, players: readonly string[], read: (item: unknown, path: string) => T): Record<string, T> {
  const record = recordOf(value, path, read);
  for (const key of Object.keys(record)) if (!players.includes(key)) throw new FormatError(childPath(path, key), notAPlayer(key, players));
  return record;
}

const readPlayers = (value: unknown, path: string): string[] => arrayOf(value, path, expectNonEmptyString);

/** What reading a field may depend on: the case's players, and whether the case is an error. */
interface ResultContext {
  players: readonly string[];
  errored: boolean;
}

/** How each kind of value of the field table is read (the compiler asks for one per kind). */
const READERS: { [K in ResultValueKind]: (value: unknown, path: string, c: ResultContext) => ResultValueTypes[K] } = {
  caseId: expectNonEmptyString,
  players: readPlayers,
  method: (v, p) => expectOneOf(v, RESULT_METHODS, p),
  flag: expectBoolean,
  text: expectString,
  // Only an errored case may lack its values (see unmeasuredValue).
  measure: (v, p, c) => (c.errored ? unmeasuredValue(v, p) : expectFiniteNumber(v, p)),
  count: expectNonNegative,
  estimator: (v, p) => expectOneOf(v, ESTIMATOR_NAMES, p),
  perPlayer: (v, p, c) => playerRecord(v, p, c.players, expectFiniteNumber),
  intervalPerPlayer: (v, p, c) => playerRecord(v, p, c.players, expectInterval),
  playerList: (v, p, c) => arrayOf(v, p, (x, q) => expectOneOf(x, c.players, q)),
  stepOrNull: (v, p) => (v === null ? null : expectString(v, p)),
  stopReason: (v, p) => expectOneOf(v, STOP_REASONS, p),
  outputs: expectDataRecord,
  outputsPerPlayer: (v, p, c) => playerRecord(v, p, c.players, expectDataRecord),
  notes: (v, p) => arrayOf(v, p, expectString),
  requestKeys: (v, p) => arrayOf(v, p, expectRequestKey),
  usage: validateUsage,
  coalitions: (v, p) => arrayOf(v, p, validateCoalition),
  history: (v, p) => arrayOf(v, p, validateHistoryPoint),
  interactions: (v, p, c) => arrayOf(v, p, (x, q) => validateInteraction(x, q, c.players)),
  repairs: (v, p, c) => validateRepairs(v, p, c.players),
  repairSearch: validateRepairSearch,
  budgetSkipped: (v, p) => {
    const parts = arrayOf(v, p, (x, q) => expectOneOf(x, BUDGET_SKIPPED_PARTS, q));
    if (parts.length === 0) throw new FormatError(p, 'is empty: a result that skipped nothing for the budget has no notComputed');
    return parts;
  },
};

/**
 * Every field of the result's kind is there that the field table says it must carry. A failing
 * case analysed without error must carry its blame; the common fields were read as required.
 */
function assertCarriesItsFields(result: object, fields: readonly ResultFieldName[], path: string): asserts result is CaseResult {
  for (const name of fields) {
    if (!RESULT_FIELDS[name].optional && !Object.hasOwn(result, name)) {
      throw new FormatError(childPath(path, name), 'is missing: a failing case analysed without error carries its blame');
    }
  }
}

/**
 * One analysed case (the engine's CaseResult), rebuilt from untrusted JSON field by field as the
 * field table (engine/result-fields.ts) lists them. A field the table does not list is refused,
 * naming its path; a field of another kind of result (blame on a passed case or an error) is read,
 * then left out, as the engine never writes one.
 */
export function validateCaseResult(value: unknown, path: string): CaseResult {
  const object = expectObject(value, path);
  rejectUnknownFields(object, RESULT_FIELD_NAMES, path);
  // The players first: other fields are checked against them.
  const players = requiredField(object, 'players', path, readPlayers);
  const error = optionalField(object, 'error', path, expectString);
  const context: ResultContext = { players, errored: error !== undefined };
  const read = new Map<string, unknown>();
  for (const name of RESULT_FIELD_NAMES) {
    if (!isResultField(name) || name === 'players' || name === 'error') continue;
    const field: ResultFieldSpec = RESULT_FIELDS[name];
    const raw = ownField(object, name);
    // Fields every result carries are read even when absent, so the reader names what is missing.
    if (raw !== undefined || (field.on === 'all' && !field.optional)) read.set(name, READERS[field.value](raw, childPath(path, name), context));
  }
  read.set('players', players);
  if (error !== undefined) read.set('error', error);
  const failed = read.get('failed') === true;
  const kind = error !== undefined ? 'error' : failed ? 'attributed' : 'passed';
  // An error is a failed case whatever the file says (engine/case-result.ts errorResult).
  if (kind === 'error') read.set('failed', true);
  const fields = resultFieldsOf(kind);
  const result: Record<string, unknown> = {};
  for (const name of fields) if (read.has(name)) result[name] = read.get(name);
  assertCarriesItsFields(result, fields, path);
  assertBaselinesOrBudget(result, path);
  return result;
}

/** A baseline is left out only by a budget, which says so in `notComputed` (engine/case-result.ts). */
function assertBaselinesOrBudget(result: CaseResult, path: string): void {
  if (result.error !== undefined || !result.failed) return;
  for (const name of ['fixAlone', 'leaveOneOut'] as const) {
    if (result[name] === undefined && !result.notComputed?.includes(name)) {
      throw new FormatError(childPath(path, name), 'is missing: a failing case analysed without error carries its blame (only a budget leaves a baseline out, listing it in notComputed)');
    }
  }
}
