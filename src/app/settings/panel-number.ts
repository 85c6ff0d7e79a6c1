/**
 * What a number field of the settings panel makes of its text, by the setting's bounds in the
 * settings schema (the same check as the command's flags, session files and the address): the
 * value, or the problem the field shows. An empty field means none where the setting allows it.
 */
import type { AnalysisSettings } from '../../engine/types.ts';
import { NONE_TEXT, numberFromText, type NumberBounds } from '../../engine/settings/number-setting.ts';
import { settingEntries, type NumberSetting, type SettingKey } from '../../engine/settings/schema.ts';

export function panelNumber(bounds: NumberBounds, text: string): { value: number } | { problem: string } {
  const read = numberFromText(bounds, bounds.none && text.trim() === '' ? NONE_TEXT : text);
  if ('value' in read) return read;
  // The field names itself: the problem without the value typed.
  return { problem: `${read.problem.replace(/, got ".*"$/s, '').replace(/^expected/, 'Expected')}.` };
}

/** The number settings the panel places itself, each with its own hint and condition (SettingsPanel.svelte). */
export const PLACED_IN_PANEL: ReadonlySet<SettingKey> = new Set(['worlds', 'delta', 'width', 'tieTolerance', 'budget', 'seed', 'maxPermutations']);

/**
 * Every other number setting of the schema, where it changes results under these settings: the
 * panel shows a field for each, so a new number setting can be set in the page without an edit
 * to the panel.
 */
export function otherNumberSettings(settings: AnalysisSettings, method: 'exact' | 'mc'): (readonly [SettingKey, NumberSetting])[] {
  return settingEntries().filter(
    (e): e is readonly [SettingKey, NumberSetting] => e[1].kind === 'number' && !PLACED_IN_PANEL.has(e[0]) && e[1].changesResults(settings, { method, defaultFixes: {} }),
  );
}
