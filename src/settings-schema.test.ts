/**
 * The settings schema walked field by field: every host that reads a setting (the command's
 * flags, the session validator, the address, the panel's number fields) accepts and refuses the
 * same values, the results key changes exactly where the schema says a field changes results,
 * and every flag of the schema re-runs a stored study. The values tried are made from each
 * field's own bounds, so a new field is walked without an edit here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from './engine/settings.ts';
import { expectedText } from './engine/settings/number-setting.ts';
import { settingEntries, SETTINGS_SCHEMA, type AnySetting, type NumberSetting, type SettingKey } from './engine/settings/schema.ts';
import type { AnalysisSettings } from './engine/types.ts';
import { parseArgs, UsageError } from './cli/args.ts';
import { RERUN_FLAGS, rerunSettings } from './cli/session-input.ts';
import { validateSettings } from './session/validate-settings.ts';
import { changedSettings, emptyUrlState, fromHash, toHash } from './app/navigation/url-state.ts';
import { otherNumberSettings, panelNumber, PLACED_IN_PANEL } from './app/settings/panel-number.ts';
import { settingsKey } from './app/state/settings-key.ts';
import { otherSettingFacts, WORDED_IN_HEADER } from './report/sections/setting-facts.ts';

/** The defaults as a session file holds them (JSON writes Infinity as null). */
const STORED_DEFAULTS: unknown = JSON.parse(JSON.stringify(DEFAULT_SETTINGS));

/** Texts a number field must accept, made from its bounds: the ends, the default, a value inside, none where allowed. */
function validTexts(s: NumberSetting): string[] {
  const texts: number[] = [];
  const step = s.integer ? 1 : 1e-6;
  if (Number.isFinite(s.min)) texts.push(s.minExclusive ? s.min + step : s.min);
  if (Number.isFinite(s.max)) texts.push(s.maxExclusive ? s.max - step : s.max);
  else texts.push((Number.isFinite(s.min) ? s.min : 0) + 1000);
  if (Number.isFinite(s.default)) texts.push(s.default);
  return [...texts.map(String), ...(s.none ? ['none'] : [])];
}

/** Texts a number field must refuse: just past each end, a fraction where whole numbers are asked, no number at all, none where not allowed. */
function invalidTexts(s: NumberSetting): string[] {
  const step = s.integer ? 1 : 1e-6;
  const texts: string[] = ['abc', '1x'];
  if (Number.isFinite(s.min)) texts.push(String(s.minExclusive ? s.min : s.min - step));
  if (Number.isFinite(s.max)) texts.push(String(s.maxExclusive ? s.max : s.max + step));
  if (s.integer) texts.push(String((Number.isFinite(s.min) ? s.min : 0) + 1.5));
  if (!s.none) texts.push('none', 'Infinity');
  return texts;
}

/** The text as a session file would hold it: none is null, a number a number, anything else a string. */
function asJson(text: string): unknown {
  if (text === 'none') return null;
  const x = Number(text);
  return Number.isFinite(x) && text.trim() !== '' ? x : text;
}

/** What each host makes of one text for one field: the value, or undefined when it refuses it. */
function hosts(key: SettingKey, setting: AnySetting, text: string) {
  const fromCli = () => {
    try {
      return parseArgs(['trace.json', setting.flag!, text]).settings[key];
    } catch (e) {
      if (e instanceof UsageError) {
        expect(e.message).toContain(setting.flag!);
        return undefined;
      }
      throw e;
    }
  };
  const fromSession = () => {
    try {
      return validateSettings({ ...(STORED_DEFAULTS as object), [key]: asJson(text) }, '$.settings')[key];
    } catch (e) {
      expect((e as Error).message).toContain(`$.settings.${key}`);
      return undefined;
    }
  };
  const fromAddress = () => {
    const state = fromHash(`#demo=x&${key}=${encodeURIComponent(text)}`);
    if (state.settingsProblem !== undefined) {
      expect(state.settingsProblem).toContain(`address.${key}`);
      return undefined;
    }
    return state.settings[key];
  };
  return { fromCli, fromSession, fromAddress };
}

const numberEntries = settingEntries().filter((e): e is [SettingKey, NumberSetting] => e[1].kind === 'number');

describe('the settings schema', () => {
  it('gives every field a default within its bounds, and the defaults pass the session validator', () => {
    expect(validateSettings(STORED_DEFAULTS, '$.settings')).toEqual(DEFAULT_SETTINGS);
    for (const [key, setting] of numberEntries) expect(panelNumber(setting, setting.default === Infinity ? '' : String(setting.default)), key).toEqual({ value: setting.default });
  });

  for (const [key, setting] of numberEntries) {
    it(`${key}: the command, session files, the address and the panel accept and refuse the same values`, () => {
      expect(setting.flag).not.toBeNull();
      expect(setting.address).toBe(true);
      for (const text of validTexts(setting)) {
        const value = text === 'none' ? Infinity : Number(text);
        const h = hosts(key, setting, text);
        expect([h.fromCli(), h.fromSession(), h.fromAddress(), panelNumber(setting, text === 'none' ? '' : text)], `${key} = ${text}`).toEqual([value, value, value, { value }]);
      }
      for (const text of invalidTexts(setting)) {
        const h = hosts(key, setting, text);
        const panel = panelNumber(setting, text);
        expect([h.fromCli(), h.fromSession(), h.fromAddress(), 'problem' in panel], `${key} = ${text}`).toEqual([undefined, undefined, undefined, true]);
      }
    });
  }

  for (const [key, setting] of settingEntries()) {
    if (setting.kind !== 'choice') continue;
    it(`${key}: the command, session files and the address take each listed value and refuse others`, () => {
      for (const value of setting.values) {
        const h = hosts(key, setting, value);
        // --stop budget needs a budget to spend (the command checks the two together).
        const cli = key === 'stop' && value === 'budget' ? parseArgs(['trace.json', '--stop', value, '--budget', '5']).settings[key] : h.fromCli();
        expect([cli, h.fromSession(), h.fromAddress()]).toEqual([value, value, value]);
      }
      const h = hosts(key, setting, 'other');
      expect([h.fromCli(), h.fromSession(), h.fromAddress()]).toEqual([undefined, undefined, undefined]);
    });
  }

  it('switches: the flag turns one on, files and the address hold true or false and refuse anything else', () => {
    for (const [key, setting] of settingEntries()) {
      if (setting.kind !== 'boolean') continue;
      expect(parseArgs(['trace.json', setting.flag!]).settings[key]).toBe(true);
      for (const value of [true, false]) {
        expect(validateSettings({ ...(STORED_DEFAULTS as object), [key]: value }, '$')[key]).toBe(value);
        expect(fromHash(`${key}=${value}`).settings[key]).toBe(value);
      }
      expect(() => validateSettings({ ...(STORED_DEFAULTS as object), [key]: 'yes' }, '$')).toThrow(`$.${key}`);
      expect(fromHash(`${key}=yes`).settingsProblem).toContain(`address.${key}`);
    }
  });

  it('the address writes what it reads, none included, and carries only what differs from the defaults', () => {
    const changed: Record<string, unknown> = {};
    for (const [key, setting] of settingEntries()) {
      if (!setting.address) continue;
      if (setting.kind === 'number') changed[key] = setting.none ? (setting.default === Infinity ? 7 : Infinity) : validTexts(setting).map(Number).find((x) => x !== setting.default);
      else if (setting.kind === 'choice') changed[key] = setting.values.find((v) => v !== setting.default);
      else changed[key] = !setting.default;
    }
    const settings = { ...DEFAULT_SETTINGS, ...changed } as AnalysisSettings;
    const carried = changedSettings(settings, DEFAULT_SETTINGS);
    expect(carried).toEqual(changed);
    expect(fromHash(toHash({ ...emptyUrlState(), settings: carried })).settings).toEqual(changed);
    expect(changedSettings(DEFAULT_SETTINGS, DEFAULT_SETTINGS)).toEqual({});
  });

  it('every flag of the schema re-runs a stored study with that setting in place of the stored one', () => {
    for (const [key, setting] of settingEntries()) {
      if (setting.flag === null) continue;
      expect(RERUN_FLAGS, key).toContain(setting.flag);
    }
    const opts = parseArgs(['s.json', '--worlds', '16', '--tie-tolerance', '0.2', '--interactions']);
    expect(rerunSettings({ ...DEFAULT_SETTINGS, seed: 4 }, opts)).toEqual({ ...DEFAULT_SETTINGS, seed: 4, worlds: 16, tieTolerance: 0.2, interactions: true });
  });

  it('a session or address value out of bounds is refused naming the field, never clamped', () => {
    expect(() => validateSettings({ ...(STORED_DEFAULTS as object), worlds: 100_001 }, '$.settings')).toThrow('$.settings.worlds: expected a whole number from 1 to 100000, got 100001');
    expect(() => validateSettings({ ...(STORED_DEFAULTS as object), seed: -1 }, '$.settings')).toThrow('$.settings.seed: expected a whole number from 0 to 2^53 - 1, got -1');
    expect(() => validateSettings({ ...(STORED_DEFAULTS as object), width: 0 }, '$.settings')).toThrow('$.settings.width: expected a number greater than 0, got 0');
    expect(fromHash('worlds=0&mode=prior')).toMatchObject({ settings: {}, settingsProblem: 'address.worlds: expected a whole number from 1 to 100000, got "0"' });
    expect(() => parseArgs(['t.json', '--budget', '0'])).toThrow('--budget: expected a number greater than 0, or none, got "0"');
    expect(panelNumber(SETTINGS_SCHEMA.worlds, '2000.5')).toEqual({ problem: 'Expected a whole number from 1 to 100000.' });
    expect(panelNumber(SETTINGS_SCHEMA.budget, '')).toEqual({ value: Infinity });
  });
});

describe('the results key, from each field\'s changesResults', () => {
  const fixes = { planner: 'date constraint', retriever: 'drop superseded' };
  /** Settings in which each field may matter: Monte Carlo under each stop rule, outside recorded mode. */
  const bases: AnalysisSettings[] = (['top1', 'width', 'budget'] as const).map((stop) => ({ ...DEFAULT_SETTINGS, mode: 'posterior', method: 'mc', stop, budget: 100 }));
  const another = (key: SettingKey, setting: AnySetting, base: AnalysisSettings): unknown => {
    switch (setting.kind) {
      case 'number':
        return validTexts(setting).map((t) => (t === 'none' ? Infinity : Number(t))).find((x) => x !== (base[key] ?? setting.default));
      case 'choice':
        return setting.values.find((v) => v !== base[key] && v !== 'auto' && !(key === 'mode' && v === 'recorded'));
      case 'boolean':
        return !(base[key] ?? setting.default);
      case 'structured':
        return { fixChoice: { planner: 'oracle' }, models: { default: 'm' }, repairs: { size: 2 }, modelParams: { default: { seed: 1 } } }[key as string];
    }
  };

  for (const [key, setting] of settingEntries()) {
    it(`${key}: changing it changes the key where the schema says it changes results, and only there`, () => {
      let mattered = false;
      for (const base of bases) {
        const changed = { ...base, [key]: another(key, setting, base) } as AnalysisSettings;
        const method = 'mc' as const;
        const matters = setting.changesResults(changed, { method, defaultFixes: fixes }) || setting.changesResults(base, { method, defaultFixes: fixes });
        mattered ||= matters;
        if (matters) expect(settingsKey(changed, fixes, 4), key).not.toBe(settingsKey(base, fixes, 4));
        // Exact analysis: only what matters to it changes the key.
        const exact = { ...base, method: 'exact' as const };
        const exactChanged = { ...changed, method: 'exact' as const };
        if (key !== 'method' && !setting.changesResults(exactChanged, { method: 'exact', defaultFixes: fixes })) expect(settingsKey(exactChanged, fixes, 4), key).toBe(settingsKey(exact, fixes, 4));
      }
      expect(mattered, `${key} changes results in none of the settings tried`).toBe(true);
    });
  }
});

describe('the report header and the panel', () => {
  it('words every number setting: in sentences of its own, or as the schema\'s label and value', () => {
    const numberKeys = numberEntries.map(([key]) => key);
    for (const key of WORDED_IN_HEADER) expect(numberKeys).toContain(key);
    // Each number setting at a value of its own (an absent optional one reads as its default, off).
    const values = Object.fromEntries(numberEntries.map(([key, setting]) => [key, Number(validTexts(setting)[0])]));
    const sampled = { ...DEFAULT_SETTINGS, ...values, method: 'mc' as const } as AnalysisSettings;
    const facts = otherSettingFacts(sampled, 'mc').map((f) => f.term);
    for (const [key, setting] of numberEntries) if (!WORDED_IN_HEADER.has(key) && setting.changesResults(sampled, { method: 'mc', defaultFixes: {} })) expect(facts).toContain(setting.label);
    expect(SETTINGS_SCHEMA.worlds.label).toBe('Worlds');
  });

  it('the panel shows a field for every number setting: placed by hand, or from the schema where it changes results', () => {
    const numberKeys = numberEntries.map(([key]) => key);
    for (const key of PLACED_IN_PANEL) expect(numberKeys).toContain(key);
    const sampled = { ...DEFAULT_SETTINGS, method: 'mc' as const, mode: 'posterior' as const };
    const shown = otherNumberSettings(sampled, 'mc').map(([key]) => key);
    for (const [key, setting] of numberEntries) if (!PLACED_IN_PANEL.has(key) && setting.changesResults(sampled, { method: 'mc', defaultFixes: {} })) expect(shown).toContain(key);
    expect(shown.filter((key) => PLACED_IN_PANEL.has(key))).toEqual([]);
  });
});

describe('the docs\' settings table', () => {
  it('has a row per field with its flag, and each number\'s bounds in the schema\'s words', () => {
    const docs = readFileSync(new URL('../docs/formats.md', import.meta.url), 'utf8');
    // The section runs to the next heading: the tables after it list other fields.
    const section = docs.slice(docs.indexOf('### Analysis settings'));
    const table = section.slice(0, section.search(/\n#{2,3} /) === -1 ? undefined : section.search(/\n#{2,3} /));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows.length).toBe(settingEntries().length);
    for (const [key, setting] of settingEntries()) {
      const row = rows.find((r) => r.startsWith(`| \`${key}${setting.optional ? '?' : ''}\` |`));
      expect(row, key).toBeDefined();
      if (setting.flag !== null) expect(row, key).toContain(`\`${setting.flag}`);
      if (setting.kind === 'number') expect(row, key).toContain(expectedText(setting));
      if (setting.kind === 'choice') for (const value of setting.values) expect(row, key).toContain(`\`${value}\``);
    }
  });
});
