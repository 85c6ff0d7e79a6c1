import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import { analyzeSourceCase, compileChecked, describeForAnalysis } from './analyze-source.ts';
import { prepareSource } from './prepare-source.ts';
import { withoutListedCases } from './without-listed-cases.ts';

const STEPS = `steps: [{ name: 'a', inputs: ['x'], cost: 1, run: ({ x }) => (x % 2 ? 'bad' : 'ok'), fixes: [{ name: 'f', cost: 1, run: () => 'ok' }] }],
  metric: (outputs) => (outputs.a === 'ok' ? 1 : 0),`;
const listed = (n: number, separator = ',\n    ') =>
  `[${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `c${i}`, inputs: { x: i } })).join(separator)}]`;

/** 60 listed cases (about 2 000 characters), then a step whose error names its line and column. */
function definition(list: string, after = ''): string {
  return `export default {
  name: 'own',
  ${STEPS}
  cases: ${list},${after}
};
`;
}

describe("the definition as the pool's workers analyse it (issue 10, defect 12)", () => {
  it('leaves the inline case list out, every other line and column where it was', () => {
    const source = definition(listed(60));
    const { analysisSource } = describeForAnalysis(source);
    expect(analysisSource.length).toBeLessThan(source.length / 4);
    expect(analysisSource.split('\n')).toHaveLength(source.split('\n').length);
    expect(analysisSource).toContain('  cases: []\n');
    expect(describeForAnalysis(analysisSource).summary.cases).toEqual([]);
  });

  it('keeps the column of code after the list on its last line (multi-line and one-line lists)', () => {
    for (const list of [listed(60), listed(60, ', ')]) {
      const source = definition(list, " extra: (() => { throw new Error('late'); })(),");
      const stripped = withoutListedCases(source, prepareSource(source, 'p.js').listedCases);
      expect(stripped).not.toContain('c59');
      const column = (text: string) => text.split('\n').find((line) => line.includes('extra:'))!.indexOf('extra:');
      expect(column(stripped)).toBe(column(source));
      expect(() => compileChecked(stripped, 'p.js', { cases: 'skip' })).toThrow(/p\.js:\d+:\d+/);
      const where = (text: string) => {
        try {
          compileChecked(text, 'p.js', { cases: 'skip' });
        } catch (error) {
          return /p\.js:\d+:\d+/.exec((error as Error).message)?.[0];
        }
      };
      expect(where(stripped)).toBe(where(source));
    }
  });

  it('analyses a case of the stripped text exactly as of the whole definition', () => {
    const source = definition(listed(60));
    const { analysisSource } = describeForAnalysis(source);
    const caseDef = { id: 'c7', inputs: { x: 7 } };
    expect(analyzeSourceCase(analysisSource, caseDef, DEFAULT_SETTINGS)).toEqual(analyzeSourceCase(source, caseDef, DEFAULT_SETTINGS));
  });

  it('keeps short lists, and lists another accessor of the exported object could read', () => {
    const short = definition(listed(2));
    expect(describeForAnalysis(short).analysisSource).toBe(short);
    const accessor = definition(listed(60)).replace("name: 'own',", "get name() { return 'own ' + this.cases.length; },");
    expect(describeForAnalysis(accessor).summary.name).toBe('own 60');
    expect(describeForAnalysis(accessor).analysisSource).toBe(accessor);
  });

  it("never reads the cases of an instance told the pool described it ('skip'), not even the first", () => {
    const bad = definition("[{ id: 'a', inputs: {} }, { id: 'a', inputs: {} }]");
    expect(compileChecked(bad, 'skipped.js', { cases: 'skip' }).cases).toBeUndefined();
    // Still checked by the next instance that reads them.
    expect(() => compileChecked(bad, 'skipped.js', { cases: false })).toThrow('skipped.js: cases[1].id: duplicate case id "a" (also cases[0])');
  });
});
