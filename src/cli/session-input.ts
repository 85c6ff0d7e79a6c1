/**
 * Session files (and reports, which embed one) as the command's input, read through the importer
 * list (src/session/opened-input.ts): printed as stored, re-run with other settings, or merged
 * (docs/shards.md). Here: which flags re-run a stored study.
 */
import type { AnalysisSettings } from '../engine/types.ts';
import type { CliOptions } from './args.ts';
import { settingEntries } from '../engine/settings/schema.ts';

/**
 * Flags that set a setting of the study, by the setting they set: every flag of the settings
 * schema (each changes results, so giving one re-runs the study).
 */
const SETTING_FLAGS: Readonly<Record<string, keyof AnalysisSettings>> = Object.fromEntries(
  settingEntries().flatMap(([key, setting]) => (setting.flag === null ? [] : [[setting.flag, key]])),
);

/** Flags that make a stored study run again: its settings, another definition, or a shard of it. */
export const RERUN_FLAGS: readonly string[] = [...Object.keys(SETTING_FLAGS), '--pipeline', '--shard'];

/** The first flag given that re-runs a stored study, if any. */
export function rerunFlag(opts: CliOptions): string | undefined {
  return RERUN_FLAGS.find((flag) => opts.given.has(flag));
}

/** The stored settings with those given on the command line in their place. */
export function rerunSettings(stored: AnalysisSettings, opts: CliOptions): AnalysisSettings {
  const settings: AnalysisSettings = { ...stored };
  for (const [flag, key] of Object.entries(SETTING_FLAGS)) if (opts.given.has(flag)) Object.assign(settings, { [key]: opts.settings[key] });
  return settings;
}
