import type { AnalysisSettings } from '../../engine/types.ts';
import { settingEntries, type SettingKey } from '../../engine/settings/schema.ts';
import { formatCount } from '../format.ts';

/**
 * The number settings the header words in sentences of its own (worlds, confidence, budget and
 * seed as facts; the width and tie tolerance in the stop rule; the permutation cap in the method).
 */
export const WORDED_IN_HEADER: ReadonlySet<SettingKey> = new Set(['worlds', 'delta', 'width', 'budget', 'maxPermutations', 'seed', 'tieTolerance']);

/**
 * Every other number setting of the settings schema, as the header's term and value, where it
 * changed what ran (its `changesResults`, with the method that ran): a new number setting shows
 * in the report without an edit here. Absent optional settings are left out.
 */
export function otherSettingFacts(settings: AnalysisSettings, ranMethod: 'exact' | 'mc'): { term: string; value: string }[] {
  const facts: { term: string; value: string }[] = [];
  for (const [key, setting] of settingEntries()) {
    if (setting.kind !== 'number' || WORDED_IN_HEADER.has(key)) continue;
    const value = settings[key];
    if (typeof value !== 'number' || !setting.changesResults(settings, { method: ranMethod, defaultFixes: {} })) continue;
    facts.push({ term: setting.label, value: !Number.isFinite(value) && setting.none ? 'none' : setting.integer ? formatCount(value) : String(value) });
  }
  return facts;
}
