/**
 * The command's setting flags (`--worlds N`, `--mode M`, `--interactions`, ...), read from the
 * settings schema: each number, choice and switch with a flag, with the schema's bounds and
 * values. The structured settings keep flags of their own in args.ts (`--fix`, `--model`,
 * `--model-param`) and repair-args.ts.
 */
import type { AnalysisSettings } from '../engine/types.ts';
import { settingEntries, type BooleanSetting, type ChoiceSetting, type NumberSetting, type SettingKey } from '../engine/settings/schema.ts';
import { numberFromText } from '../engine/settings/number-setting.ts';
import { UsageError } from './usage-error.ts';

type FlagSetting = NumberSetting | ChoiceSetting | BooleanSetting;

const BY_FLAG: ReadonlyMap<string, readonly [SettingKey, FlagSetting]> = new Map(
  settingEntries()
    .filter((e): e is readonly [SettingKey, FlagSetting] => e[1].kind !== 'structured' && e[1].flag !== null)
    .map((e) => [e[1].flag!, e] as const),
);

/** A flag's value for one setting, checked against the schema; a bad one is a UsageError naming the flag. */
export function settingFromFlag(flag: string, setting: NumberSetting | ChoiceSetting, text: string): number | string {
  if (setting.kind === 'choice') {
    if (!setting.values.includes(text)) throw new UsageError(`${flag}: expected one of ${setting.values.join(', ')}, got "${text}"`);
    return text;
  }
  const read = numberFromText(setting, text);
  if ('problem' in read) throw new UsageError(`${flag}: ${read.problem}`);
  return read.value;
}

/** Takes one setting flag into `settings` (a switch takes no value); false for any other flag. */
export function takeSettingFlag(settings: AnalysisSettings, flag: string, value: () => string): boolean {
  const entry = BY_FLAG.get(flag);
  if (!entry) return false;
  const [key, setting] = entry;
  // The schema's type ties each key to an entry of its field's kind, so the value has the field's type.
  Object.assign(settings, { [key]: setting.kind === 'boolean' ? true : settingFromFlag(flag, setting, value()) });
  return true;
}
