/**
 * The analysis settings, each field once: its kind, default, bounds or values, the command's flag,
 * the address key, when it changes a case's result, and its words. Every host derives from this:
 * the command's setting flags (`cli/setting-flags.ts`) and which of them re-run a stored study
 * (`cli/session-input.ts`), the session validator (`session/validate-settings.ts`), the address
 * (`app/navigation/address-settings.ts`), the page's results key (`app/state/settings-key.ts`), the
 * panel's number fields (`app/settings/panel-number.ts`) and the report's header
 * (`report/sections/setting-facts.ts`). The settings' type, `AnalysisSettings`, is read off this
 * record (each entry's kind, values and `optional`), so a field exists once: here.
 * Adding a setting: docs/architecture.md, "Adding a setting".
 */
import { METHODS, MODES, RADII, STOP_RULES, type Method, type Mode, type Radius, type StopRule } from '../setting-choices.ts';
import { DEFAULT_ESTIMATOR, ESTIMATOR_NAME_LIST, LEGACY_ESTIMATOR, type EstimatorName } from '../shapley/estimator-names.ts';
import { canonicalize } from '../canonical.ts';
import { ownValue } from '../named-record.ts';
import type { NumberBounds } from './number-setting.ts';

/** What decides whether a setting changes a case's result, besides the settings themselves. */
export interface ResultContext {
  /** The method the settings resolve to for this study's step count ('auto' resolved). */
  method: 'exact' | 'mc';
  /** Each step's default (first) fix, by step name: choosing it is choosing none. */
  defaultFixes: Readonly<Record<string, string>>;
}

/** The fields the results rules below read (the whole settings type is derived from this record). */
export interface RuleSettings {
  readonly mode: Mode;
  readonly stop: StopRule;
}

interface SettingBase {
  /** May be absent from the settings (then it reads as its default). */
  readonly optional: boolean;
  /** The field's name: the report header's term, and the panel's for its number fields. */
  readonly label: string;
  /** The command's flag that sets it (null: none, or a flag group of its own). */
  readonly flag: string | null;
  /** Whether the value changes a case's result under these settings (the results key leaves it out where not). */
  readonly changesResults: (settings: RuleSettings, context: ResultContext) => boolean;
}

export interface NumberSetting extends SettingBase, NumberBounds {
  readonly kind: 'number';
  /** The value when absent or not given (optional fields stay absent in files). */
  readonly default: number;
  /** The address carries it under the field's name. */
  readonly address: boolean;
}

export interface ChoiceSetting<T extends string = string> extends SettingBase {
  readonly kind: 'choice';
  readonly values: readonly T[];
  readonly default: T;
  /** The value of a session file that has none (written before the setting existed). */
  readonly absentInFiles?: T;
  readonly address: boolean;
  /** The value the results key holds (default: the value itself). */
  readonly keyValue?: (value: T, context: ResultContext) => unknown;
}

export interface BooleanSetting extends SettingBase {
  readonly kind: 'boolean';
  readonly default: boolean;
  readonly address: boolean;
}

/**
 * A setting of structured values (records by step or alias, the repair search): validated by the
 * session validator's own reader for it, set by flags of its own, never carried by the address.
 */
export interface StructuredSetting<T> extends SettingBase {
  readonly kind: 'structured';
  readonly address: false;
  /** The value the results key holds (absent values hold null). */
  keyValue(value: T, context: ResultContext): unknown;
}

/** The value type an entry describes. */
type ValueOf<S> = S extends NumberSetting ? number : S extends BooleanSetting ? boolean : S extends ChoiceSetting<infer T> ? T : S extends StructuredSetting<infer T> ? T : never;
type Schema = typeof SETTINGS_SCHEMA;
type OptionalKey = { [K in keyof Schema]: Schema[K]['optional'] extends true ? K : never }[keyof Schema];

/** The analysis settings: each schema entry's field, absent-able where the entry is optional. */
export type AnalysisSettings = { [K in Exclude<keyof Schema, OptionalKey>]: ValueOf<Schema[K]> } & { [K in OptionalKey]?: ValueOf<Schema[K]> };

export type SettingKey = keyof AnalysisSettings;
/** A structured entry of value type T (its value is read by the session validator's own reader). */
function structured<T>(entry: Omit<StructuredSetting<T>, 'kind' | 'address' | 'optional'>): StructuredSetting<T> & { readonly optional: true } {
  return { kind: 'structured', address: false, optional: true, ...entry };
}
/** Any entry, read by kind (a structured entry's key function is given that same field's value). */
export type AnySetting = NumberSetting | ChoiceSetting | BooleanSetting | StructuredSetting<unknown>;

const always = (): boolean => true;
const monteCarlo = (_: RuleSettings, c: ResultContext): boolean => c.method === 'mc';
const byName = (a: [string, unknown], b: [string, unknown]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The largest fix set a sampled repair search may be asked for (2^52 sets is already out of reach). */
export const REPAIR_SIZE: NumberBounds = { min: 1, max: 52, integer: true };

/** In this order the results key lists them and the docs' tables read. */
export const SETTINGS_SCHEMA = {
  mode: { kind: 'choice', optional: false, label: 'Mode', values: MODES, default: 'recorded' satisfies Mode, flag: '--mode', address: true, changesResults: always },
  /** Worlds for posterior and prior modes (recorded mode replays the case's one world). */
  worlds: {
    kind: 'number', optional: false, label: 'Worlds', default: 8, min: 1, max: 100_000, integer: true,
    flag: '--worlds', address: true, changesResults: (s) => s.mode !== 'recorded',
  },
  /** 'auto' = exact when its 2^n queries are within Monte Carlo's at the permutation cap (settings.ts resolveMethod), Monte Carlo above. */
  method: {
    kind: 'choice', optional: false, label: 'Method', values: METHODS, default: 'auto' satisfies Method | 'auto', flag: '--method', address: true, changesResults: always,
    // 'auto' that resolves to exact is exact: the key holds what runs.
    keyValue: (_, c) => c.method,
  },
  // The Monte Carlo knobs matter only when the method resolves to Monte Carlo for this many steps.
  delta: {
    kind: 'number', optional: false, label: 'δ (1 − confidence)', default: 0.05, min: 0, minExclusive: true, max: 1, maxExclusive: true, integer: false,
    flag: '--delta', address: true, changesResults: monteCarlo,
  },
  stop: { kind: 'choice', optional: false, label: 'Stop rule', values: STOP_RULES, default: 'top1' satisfies StopRule, flag: '--stop', address: true, changesResults: monteCarlo },
  width: {
    kind: 'number', optional: false, label: 'Interval half-width', default: 0.05, min: 0, minExclusive: true, max: Infinity, integer: false,
    flag: '--width', address: true, changesResults: (s, c) => c.method === 'mc' && s.stop === 'width',
  },
  budget: {
    kind: 'number', optional: false, label: 'Step-cost budget per case', default: Infinity, min: 0, minExclusive: true, max: Infinity, integer: false, none: true,
    flag: '--budget', address: true, changesResults: monteCarlo,
  },
  maxPermutations: {
    kind: 'number', optional: false, label: 'Permutation cap', default: 10_000, min: 1, max: Infinity, integer: true, none: true,
    flag: '--max-permutations', address: true, changesResults: monteCarlo,
  },
  radius: { kind: 'choice', optional: false, label: 'Interval', values: RADII, default: 'betting' satisfies Radius, flag: '--radius', address: true, changesResults: monteCarlo },
  estimator: {
    kind: 'choice', optional: false, label: 'Estimator', values: ESTIMATOR_NAME_LIST, default: DEFAULT_ESTIMATOR satisfies EstimatorName,
    // Sessions saved before the estimator registry ran the permutation estimator, the only one then.
    absentInFiles: LEGACY_ESTIMATOR,
    flag: '--estimator', address: true, changesResults: monteCarlo,
  },
  seed: {
    kind: 'number', optional: false, label: 'Seed', default: 1, min: 0, max: Number.MAX_SAFE_INTEGER, integer: true,
    flag: '--seed', address: true, changesResults: always,
  },
  /**
   * top1 and ranking also stop on a tie: two steps count as tied once the interval of their
   * difference lies within ±tieTolerance (from their simultaneous intervals). Absent or 0: off.
   */
  tieTolerance: {
    kind: 'number', optional: true, label: 'Tie tolerance', default: 0, min: 0, max: 1, integer: false,
    flag: '--tie-tolerance', address: true, changesResults: (s, c) => c.method === 'mc' && (s.stop === 'top1' || s.stop === 'ranking'),
  },
  /** Which fix each step uses, by step name (default: its first fix). */
  fixChoice: structured<Readonly<Record<string, string>>>({
    label: 'Fix used by each step', flag: '--fix', changesResults: always,
    // Choosing a step's default fix is choosing none; in step order, whatever the record's order.
    keyValue: (fixes, c) => {
      const chosen = Object.entries(fixes).filter(([step, fix]) => ownValue(c.defaultFixes, step) !== undefined && ownValue(c.defaultFixes, step) !== fix);
      return chosen.length > 0 ? chosen.sort(byName) : null;
    },
  }),
  /** Also compute the Shapley interaction index of every pair of steps (default: no). */
  interactions: { kind: 'boolean', optional: true, label: 'Pairwise interactions', default: false, flag: '--interactions', address: true, changesResults: always },
  /**
   * Share step runs across the study's cases (SharedStepCache): an execution that drew no noise and
   * called no model is reused by any later case giving that step the same inputs. Values are the
   * same either way; the cost charged is lower (a result's field like any other, so it is in the
   * results key). Default: no; the bandit batch stop turns it on.
   */
  shareSteps: { kind: 'boolean', optional: true, label: 'Share step runs across cases', default: false, flag: '--share-steps', address: true, changesResults: always },
  /**
   * Model ids by alias for model steps (`llm.chat({ model })`; "default" when a call names none).
   * Part of the study: the ids enter every request and so every response-cache key.
   */
  models: structured<Readonly<Record<string, string>>>({ label: 'Models', flag: '--model', changesResults: always, keyValue: (models) => Object.entries(models).sort(byName) }),
  // Repairs have their own flag group (cli/repair-args.ts); the set size matters only for Monte Carlo (exact searches every set).
  /**
   * Also list each failure's minimal repairs (docs/repairs.md): fix sets reaching `success`
   * (default: the upper end of the metric's range) with no proper subset that does; exact analyses
   * search every set, sampled ones sets of up to `size` steps.
   */
  repairs: structured<{ success?: number; size: number }>({
    label: 'Minimal repairs', flag: null, changesResults: always,
    keyValue: (repairs, c) => [c.method === 'mc' ? repairs.size : null, repairs.success ?? null],
  }),
  /** Extra endpoint parameters by alias (`--model-param ALIAS.KEY=VALUE`); they enter every request of the alias too. */
  modelParams: structured<Readonly<Record<string, Readonly<Record<string, unknown>>>>>({ label: 'Model parameters', flag: '--model-param', changesResults: always, keyValue: (params) => canonicalize(params) }),
} as const satisfies Readonly<Record<string, AnySetting>>;

const ENTRIES = Object.freeze(Object.entries(SETTINGS_SCHEMA)) as unknown as readonly (readonly [SettingKey, AnySetting])[];

/**
 * The schema's fields in order, each with its key. Typed loosely (the record's type ties each
 * entry to its field; a loop over fields cannot keep that): each host reads them by kind.
 */
export function settingEntries(): readonly (readonly [SettingKey, AnySetting])[] {
  return ENTRIES;
}

/** The settings every field's default makes (optional fields left absent). */
export function schemaDefaults(): AnalysisSettings {
  const out: Record<string, unknown> = {};
  for (const [key, setting] of ENTRIES) if (!setting.optional && setting.kind !== 'structured') out[key] = setting.default;
  // Every required field is a number, choice or switch with a default of its own type (the schema's type says so).
  return out as unknown as AnalysisSettings;
}

/** The fields a link carries (numbers, names and switches), in order. */
export function addressEntries(): readonly (readonly [SettingKey, NumberSetting | ChoiceSetting | BooleanSetting])[] {
  return settingEntries().filter((e): e is readonly [SettingKey, NumberSetting | ChoiceSetting | BooleanSetting] => e[1].address);
}
