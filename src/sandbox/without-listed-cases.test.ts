import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import { analyzeSourceCase, compileChecked, describeForAnalysis } from './analyze-source.ts';
import { prepareSource } from './prepare-source.ts';
import { withoutListedCases } from './without-listed-cases.ts';
import { jsonCaseList } from './json-case-list.ts';
import { summarizeDefinition } from '../engine/definition-summary.ts';

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

describe("the definition as the pool's workers analyse it", () => {
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

describe('a case list written as JSON, read with JSON.parse', () => {
  /** What the definition gives read the ordinary way (acorn, then the sandbox evaluates the list). */
  const ordinary = (source: string) => {
    try {
      return summarizeDefinition(compileChecked(source, 'p.js'));
    } catch (error) {
      return (error as Error).message;
    }
  };
  const described = (source: string) => {
    try {
      return describeForAnalysis(source, 'p.js').summary;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const jsonList = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `c${i}`, inputs: { x: i, text: 'a "quoted" ] [ } {' } })));

  it('gives what the ordinary reading gives, the list left out of what workers analyse', () => {
    const source = definition(jsonList(60));
    expect(jsonCaseList(source)).not.toBeNull();
    expect(described(source)).toEqual(ordinary(source));
    expect(describeForAnalysis(source, 'p.js').analysisSource).not.toContain('c59');
  });

  it('reads other texts that look like a case list the ordinary way, with the same result or error', () => {
    const sources = [
      // The text in a comment or a string, before the real list.
      `// cases: ${jsonList(60)}\n${definition(listed(3))}`,
      definition(listed(3)).replace("name: 'own',", `name: 'own', note: "cases: ${jsonList(60).replace(/"/g, '\\"')}",`),
      // A __proto__ key is the prototype in JavaScript, a property in JSON.
      definition(jsonList(60).replace('"inputs":{"x":5,', '"inputs":{"__proto__":{"y":1},"x":5,')),
      // Errors in the list, or text the sandbox refuses anywhere.
      definition(jsonList(60).replace('"id":"c7"', '"id":"c6"')),
      definition(jsonList(60).replace('"id":"c7"', '"id":"<!-- c7"')),
      definition(jsonList(60)).replace("name: 'own',", 'name: 1,'),
      definition(jsonList(60)).replace("name: 'own',", "get name() { return 'n' + this.cases.length; },"),
    ];
    for (const source of sources) expect(described(source), source.slice(0, 200)).toEqual(ordinary(source));
    expect(described(sources[3])).toContain('duplicate case id "c6"');
    expect(described(sources[4])).toContain('looks like an HTML comment marker');
  });
});
