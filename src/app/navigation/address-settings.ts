/**
 * The settings a link carries, read and written through the settings schema: every number, choice
 * and switch with an address key, under the field's own name, with the schema's bounds (the same
 * as the command's flags, session files and the panel).
 */
import type { AnalysisSettings } from '../../engine/types.ts';
import { addressEntries, type BooleanSetting, type ChoiceSetting, type NumberSetting } from '../../engine/settings/schema.ts';
import { NONE_TEXT, numberFromText } from '../../engine/settings/number-setting.ts';

/** A setting's text in the address: Infinity (none) as `none`. */
export function settingText(value: unknown): string {
  return value === Number.POSITIVE_INFINITY ? NONE_TEXT : String(value);
}

/** One address value for a setting: its value, or the problem (without the key). */
export function settingFromAddress(setting: NumberSetting | ChoiceSetting | BooleanSetting, raw: string): { value: number | string | boolean } | { problem: string } {
  switch (setting.kind) {
    case 'number':
      return numberFromText(setting, raw);
    case 'choice':
      return setting.values.includes(raw) ? { value: raw } : { problem: `expected one of ${setting.values.join(', ')}, got "${raw}"` };
    case 'boolean':
      return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { problem: `expected true or false, got "${raw}"` };
  }
}

/**
 * The address's settings: all of them, or none and the first problem (`address.worlds: expected
 * a whole number from 1 to 100000, got "0"`), for the page to name in its banner.
 */
export function settingsFromParams(params: URLSearchParams): { settings: Partial<AnalysisSettings>; problem?: string } {
  const settings: Record<string, unknown> = {};
  for (const [key, setting] of addressEntries()) {
    const raw = params.get(key);
    if (raw === null) continue;
    const read = settingFromAddress(setting, raw);
    if ('problem' in read) return { settings: {}, problem: `address.${key}: ${read.problem}` };
    settings[key] = read.value;
  }
  // Each value was read by its own field's schema entry, so it has that field's type.
  return { settings: settings as Partial<AnalysisSettings> };
}
