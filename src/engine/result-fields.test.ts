import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isResultField, RESULT_FIELD_NAMES, RESULT_FIELDS, resultFieldsOf } from './result-fields.ts';

/** The rows of docs/formats.md's "Case results" table: each field named there, with `?` and its "on" cell. */
function documentedFields(): Map<string, { optional: boolean; on: string }> {
  const text = readFileSync(new URL('../../docs/formats.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Case results'), text.indexOf('## Command output'));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  const out = new Map<string, { optional: boolean; on: string }>();
  for (const row of rows) {
    const [names, on] = row.split('|').slice(1, 3);
    const ons = on.split(',').map((x) => x.trim());
    [...names.matchAll(/`(\w+)(\??)`/g)].forEach((m, k) => out.set(m[1], { optional: m[2] === '?', on: ons[Math.min(k, ons.length - 1)] }));
  }
  return out;
}

describe('the result field table', () => {
  it('is documented field by field in docs/formats.md, optional and kind as the table says', () => {
    const documented = documentedFields();
    expect([...documented.keys()].sort()).toEqual([...RESULT_FIELD_NAMES].sort());
    for (const name of RESULT_FIELD_NAMES.filter(isResultField)) {
      expect({ name, ...documented.get(name) }).toEqual({ name, optional: RESULT_FIELDS[name].optional, on: RESULT_FIELDS[name].on });
    }
  });

  it('gives each kind of result its fields: the common ones, plus error or blame', () => {
    const passed = resultFieldsOf('passed');
    expect(passed).toContain('vEmpty');
    expect(passed).not.toContain('error');
    expect(passed).not.toContain('shapley');
    expect(resultFieldsOf('error')).toEqual([...passed.slice(0, 4), 'error', ...passed.slice(4)]);
    const attributed = resultFieldsOf('attributed');
    expect(attributed.filter((f) => passed.includes(f))).toEqual(passed);
    expect(attributed).toEqual(expect.arrayContaining(['shapley', 'fixAlone', 'leaveOneOut', 'stopReason', 'fixable', 'coalitions']));
  });

  it('marks only unprinted fields as drill-down data, which the command may drop before printing', () => {
    const drillDown = RESULT_FIELD_NAMES.filter(isResultField).filter((name) => 'drillDown' in RESULT_FIELDS[name]);
    expect(drillDown).toEqual(['factualOutputs', 'fixedOutputs', 'repairedOutputs', 'aloneOutputs', 'coalitions', 'history']);
    for (const name of drillDown) expect(RESULT_FIELDS[name].json).toBe('never');
  });

  it('knows only its own keys as fields', () => {
    for (const name of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'shapleyy']) expect(isResultField(name)).toBe(false);
  });
});
