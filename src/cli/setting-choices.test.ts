import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { BATCH_BOUNDS, METHODS, MODE_CHOICES, MODES, RADII, RADIUS_CHOICES, STOP_RULES } from '../engine/setting-choices.ts';
import { renderHeader } from '../report/sections/header.ts';
import { validateSettings } from '../session/validate-settings.ts';
import { session } from '../session/testing/sample-session.ts';
import { parseArgs } from './args.ts';
import { helpText } from './help.ts';

/** The one list of each setting's values is what the command, the session validator and the report go by. */
describe('setting value lists', () => {
  const lists = [
    { flag: '--mode', field: 'mode', values: MODES },
    { flag: '--method', field: 'method', values: METHODS },
    { flag: '--stop', field: 'stop', values: STOP_RULES },
    { flag: '--radius', field: 'radius', values: RADII },
  ] as const;

  for (const { flag, field, values } of lists) {
    it(`${flag}: the command and the session validator accept each listed value and refuse others`, () => {
      for (const value of values) {
        // --stop budget needs a budget to spend.
        expect(parseArgs(['trace.json', flag, value, '--budget', '100']).settings[field]).toBe(value);
        expect(validateSettings({ ...DEFAULT_SETTINGS, budget: null, [field]: value }, '$.settings')[field]).toBe(value);
      }
      expect(helpText('blame', '0')).toContain(`${flag} ${values.join('|')}`);
      expect(() => parseArgs(['trace.json', flag, 'other'])).toThrow(`expected one of ${values.join(', ')}`);
      expect(() => validateSettings({ ...DEFAULT_SETTINGS, budget: null, [field]: 'other' }, '$.settings')).toThrow(`$.settings.${field}`);
    });
  }

  it('--batch-bound takes each listed bound', () => {
    for (const bound of BATCH_BOUNDS) expect(parseArgs(['trace.json', '--batch-bound', bound]).batchBound).toBe(bound);
  });

  it('the report words each mode and interval as the list does', () => {
    for (const mode of MODES) {
      for (const radius of RADII) {
        // The report names the interval of what ran, so the cases must have been sampled.
        const sampled = session();
        const html = renderHeader({ ...sampled, settings: { ...DEFAULT_SETTINGS, mode, radius, method: 'mc' }, results: sampled.results.map((r) => ({ ...r, method: 'mc' as const })) }, []);
        expect(html).toContain(MODE_CHOICES[mode].description.replace(/'/g, '&#39;'));
        expect(html).toContain(RADIUS_CHOICES[radius].description);
      }
    }
  });
});
