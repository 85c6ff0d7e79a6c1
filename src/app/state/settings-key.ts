import { resolveMethod } from '../../engine/index.ts';
import type { AnalysisSettings } from '../../engine/types.ts';
import { settingEntries, type AnySetting, type ResultContext } from '../../engine/settings/schema.ts';

/**
 * A key naming the analysis that `settings` ask for, holding only the settings that change a
 * case's result. Results are cached under it, so changing a setting re-runs the cases only when it
 * matters, and changing it back shows the earlier results at once. Which settings matter, and
 * when, is each field's `changesResults` in the settings schema (worlds only outside recorded
 * mode, the Monte Carlo knobs only when the method resolves to Monte Carlo for this many steps,
 * a step's fix only when it is not its default); a field that does not matter holds null.
 */
export function settingsKey(settings: AnalysisSettings, defaultFixes: Readonly<Record<string, string>>, stepCount: number): string {
  const context: ResultContext = { method: resolveMethod(settings.method, stepCount, settings.maxPermutations), defaultFixes };
  return JSON.stringify(settingEntries().map(([key, setting]) => (setting.changesResults(settings, context) ? keyValue(setting, settings[key], context) : null)));
}

/** One field's part of the key: an absent optional field reads as its default; numbers as text, so Infinity stays apart from null. */
function keyValue(setting: AnySetting, value: unknown, context: ResultContext): unknown {
  switch (setting.kind) {
    case 'number':
      return String(typeof value === 'number' ? value : setting.default);
    case 'choice':
      return setting.keyValue && typeof value === 'string' ? setting.keyValue(value, context) : value;
    case 'boolean':
      return typeof value === 'boolean' ? value : setting.default;
    case 'structured':
      return value === undefined ? null : setting.keyValue(value, context);
  }
}
