/**
 * The analysis settings, each field once: its kind, default, bounds or values, the command's flag,
 * the address key, when it changes a case's result, and its words. Every host derives from this:
 * the command's setting flags (`cli/setting-flags.ts`) and which of them re-run a stored study
 * (`cli/session-input.ts`), the session validator (`session/validate-settings.ts`), the address
 * (`app/navigation/address-settings.ts`), the page's results key (`app/state/settings-key.ts`), the
 * panel's number fields (`app/settings/panel-number.ts`) and the report's header
 * (`report/sections/setting-facts.ts`). The record is typed over `AnalysisSettings`, so a
 * field of that type without an entry here (or an entry of the wrong kind) fails to compile.
 * Adding a setting: docs/architecture.md, "Adding a setting".
 */
import type { AnalysisSettings, EstimatorName, Method, Mode, Radius, StopRule } from '../types.ts';
import { METHODS, MODES, RADII, STOP_RULES } from '../setting-choices.ts';
import { DEFAULT_ESTIMATOR, ESTIMATOR_NAMES, LEGACY_ESTIMATOR } from '../shapley/registry.ts';
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

interface SettingBase {
  /** May be absent from the settings (then it reads as its default). */
  readonly optional: boolean;
  /** The field's name: the report header's term, and the panel's for its number fields. */
  readonly label: string;
  /** The command's flag that sets it (null: none, or a flag group of its own). */
  readonly flag: string | null;
  /** Whether the value changes a case's result under these settings (the results key leaves it out where not). */
  readonly changesResults: (settings: AnalysisSettings, context: ResultContext) => boolean;
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
  readonly keyValue: (value: T, context: ResultContext) => unknown;
}

/** The entry a field of type T needs. */
export type SettingFor<T> = [T] extends [boolean] ? BooleanSetting : [T] extends [number] ? NumberSetting : [T] extends [string] ? ChoiceSetting<T> : StructuredSetting<T>;

export type SettingsSchema = { readonly [K in keyof AnalysisSettings]-?: SettingFor<Exclude<AnalysisSettings[K], undefined>> };

export type SettingKey = keyof AnalysisSettings;
/** Any entry, read by kind (a structured entry's key function is given that same field's value). */
export type AnySetting = NumberSetting | ChoiceSetting | BooleanSetting | StructuredSetting<unknown>;

const always = (): boolean => true;
const monteCarlo = (_: AnalysisSettings, c: ResultContext): boolean => c.method === 'mc';
const byName = (a: [string, unknown], b: [string, unknown]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The largest fix set a sampled repair search may be asked for (2^52 sets is already out of reach). */
export const REPAIR_SIZE: NumberBounds = { min: 1, max: 52, integer: true };

/** In this order the results key lists them and the docs' tables read. */
export const SETTINGS_SCHEMA: SettingsSchema = {
  mode: { kind: 'choice', optional: false, label: 'Mode', values: MODES, default: 'recorded' satisfies Mode, flag: '--mode', address: true, changesResults: always },
  // Recorded mode replays the case's one world.
  worlds: {
    kind: 'number', optional: false, label: 'Worlds', default: 8, min: 1, max: 100_000, integer: true,
    flag: '--worlds', address: true, changesResults: (s) => s.mode !== 'recorded',
  },
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
    kind: 'choice', optional: false, label: 'Estimator', values: ESTIMATOR_NAMES, default: DEFAULT_ESTIMATOR satisfies EstimatorName,
    // Sessions saved before the estimator registry ran the permutation estimator, the only one then.
    absentInFiles: LEGACY_ESTIMATOR,
    flag: '--estimator', address: true, changesResults: monteCarlo,
  },
  seed: {
    kind: 'number', optional: false, label: 'Seed', default: 1, min: 0, max: Number.MAX_SAFE_INTEGER, integer: true,
    flag: '--seed', address: true, changesResults: always,
  },
  tieTolerance: {
    kind: 'number', optional: true, label: 'Tie tolerance', default: 0, min: 0, max: 1, integer: false,
    flag: '--tie-tolerance', address: true, changesResults: (s, c) => c.method === 'mc' && (s.stop === 'top1' || s.stop === 'ranking'),
  },
  fixChoice: {
    kind: 'structured', optional: true, label: 'Fix used by each step', flag: '--fix', address: false, changesResults: always,
    // Choosing a step's default fix is choosing none; in step order, whatever the record's order.
    keyValue: (fixes, c) => {
      const chosen = Object.entries(fixes).filter(([step, fix]) => ownValue(c.defaultFixes, step) !== undefined && ownValue(c.defaultFixes, step) !== fix);
      return chosen.length > 0 ? chosen.sort(byName) : null;
    },
  },
  interactions: { kind: 'boolean', optional: true, label: 'Pairwise interactions', default: false, flag: '--interactions', address: true, changesResults: always },
  // The ids enter every request, so every response.
  models: { kind: 'structured', optional: true, label: 'Models', flag: '--model', address: false, changesResults: always, keyValue: (models) => Object.entries(models).sort(byName) },
  // Repairs have their own flag group (cli/repair-args.ts); the set size matters only for Monte Carlo (exact searches every set).
  repairs: {
    kind: 'structured', optional: true, label: 'Minimal repairs', flag: null, address: false, changesResults: always,
    keyValue: (repairs, c) => [c.method === 'mc' ? repairs.size : null, repairs.success ?? null],
  },
  modelParams: { kind: 'structured', optional: true, label: 'Model parameters', flag: '--model-param', address: false, changesResults: always, keyValue: (params) => canonicalize(params) },
};

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
