import type { AnalysisSettings } from '../engine/types.ts';
import { REPAIR_SIZE, settingEntries, type AnySetting, type SettingKey } from '../engine/settings/schema.ts';
import { expectedText, withinBounds, type NumberBounds } from '../engine/settings/number-setting.ts';
import { FormatError } from '../formats/format-error.ts';
import { expectFiniteNumber, expectObject, expectString } from '../formats/validate.ts';
import { expectBoolean, expectOneOf, optionalField, recordOf, requiredField } from './validate-fields.ts';

/** A number within a setting's bounds; where it allows none, JSON writes Infinity as null. */
function expectWithin(bounds: NumberBounds, value: unknown, path: string): number {
  if (bounds.none && (value === null || value === Number.POSITIVE_INFINITY)) return Number.POSITIVE_INFINITY;
  const number = expectFiniteNumber(value, path);
  if (!withinBounds(bounds, number)) throw new FormatError(path, `expected ${expectedText(bounds)}, got ${number}`);
  return number;
}

/** The readers of the structured settings (the schema has no JSON reader of its own: it is pure engine). */
const STRUCTURED: { readonly [K in SettingKey]?: (value: unknown, path: string) => AnalysisSettings[K] } = {
  fixChoice: (v, p) => recordOf(v, p, expectString),
  models: (v, p) => recordOf(v, p, expectString),
  repairs: validateRepairSettings,
  modelParams: (v, p) => recordOf(v, p, (x, q) => recordOf(x, q, (y) => y)),
};

function reader(key: SettingKey, setting: AnySetting): (value: unknown, path: string) => unknown {
  switch (setting.kind) {
    case 'number':
      return (v, p) => expectWithin(setting, v, p);
    case 'choice':
      return (v, p) => expectOneOf(v, setting.values, p);
    case 'boolean':
      return expectBoolean;
    case 'structured': {
      const read = STRUCTURED[key];
      if (!read) throw new Error(`the settings schema's structured field ${key} has no session reader`);
      return read;
    }
  }
}

/**
 * The analysis settings a session was run with, rebuilt from untrusted JSON: each field of the
 * settings schema read by its kind and bounds (the same bounds as the command's flags, the
 * address and the panel); an optional field stays absent when absent.
 */
export function validateSettings(value: unknown, path: string): AnalysisSettings {
  const object = expectObject(value, path);
  const out: Record<string, unknown> = {};
  for (const [key, setting] of settingEntries()) {
    const read = reader(key, setting);
    const absentInFiles = setting.kind === 'choice' ? setting.absentInFiles : undefined;
    const field = setting.optional || absentInFiles !== undefined ? optionalField(object, key, path, read) ?? absentInFiles : requiredField(object, key, path, read);
    if (field !== undefined) out[key] = field;
  }
  // Each field was read by its own schema entry's reader, of that field's type; every required one is there.
  return out as unknown as AnalysisSettings;
}

/** The minimal-repair search settings: a set size within the command's bounds and, optionally, the success level. */
function validateRepairSettings(value: unknown, path: string): NonNullable<AnalysisSettings['repairs']> {
  const object = expectObject(value, path);
  const success = optionalField(object, 'success', path, expectFiniteNumber);
  return { size: requiredField(object, 'size', path, (v, p) => expectWithin(REPAIR_SIZE, v, p)), ...(success !== undefined && { success }) };
}
