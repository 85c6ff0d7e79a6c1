import { describe, expect, it } from 'vitest';
import { analyzeCase } from '../engine/analyze.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AttributedCaseResult, CaseDef } from '../engine/types.ts';
import { compilePipeline } from '../sandbox/compile.ts';
import { DefinitionError } from '../sandbox/definition-error.ts';
import { buildRegressionGame, RegressionPlanError, storedRegressionGame } from './regression-game.ts';
import { supportDeskAfter, supportDeskBefore } from './testing/support-desk.ts';
import { readFileSync } from 'node:fs';
import { SUPPORT_DESK_CASES_FILE } from './testing/support-desk.ts';

/** A definition of steps given as [name, inputs, run source]; the metric passes when `out` equals the case's `want`. */
function definition(steps: [string, string[], string][], head = ''): string {
  return `${head}
export default {
  name: "toy",
  steps: [${steps.map(([name, inputs, run]) => `{ name: ${JSON.stringify(name)}, inputs: ${JSON.stringify(inputs)}, cost: 1, run: ${run}, fixes: [{ name: "f", cost: 1, run: ${run} }] }`).join(',\n')}],
  metric: (o, i) => (o.out === i.want ? 1 : 0),
};`;
}

function analyse(source: string, c: CaseDef) {
  return analyzeCase(compilePipeline(source, 'game.js'), c, { ...DEFAULT_SETTINGS, method: 'exact' });
}

const v = (after: string, before: string) => buildRegressionGame({ fileName: 'after.js', source: after }, { fileName: 'before.js', source: before });

describe('the regression game', () => {
  it('makes the steps whose code differs the changes, a helper they reach included, and leaves layout and comments alone', () => {
    const before = definition([['a', ['x'], '({ x }) => helper(x)'], ['b', ['a'], '({ a }) => a'], ['out', ['b'], '({ b }) => b']], 'function helper(x) { return x + 1; }');
    const helperChanged = definition([['a', ['x'], '({ x }) => helper(x)'], ['b', ['a'], '({ a }) => a'], ['out', ['b'], '({ b }) => b']], 'function helper(x) { return x + 2; }');
    const reformatted = definition([['a', ['x'], '({ x }) =>   helper( x ) /* same */'], ['b', ['a'], '({ a }) => a'], ['out', ['b'], '({ b }) => b']], '// a comment\nfunction helper(x) {\n  return x + 1;\n}');
    expect(v(helperChanged, before).plan.steps.map((s) => [s.name, s.change])).toEqual([['a', 'changed'], ['b', 'unchanged'], ['out', 'unchanged']]);
    expect(v(reformatted, before).plan.steps.every((s) => s.change === 'unchanged')).toBe(true);
  });

  it('runs the later version as it is, and the earlier one with every change reverted', () => {
    const game = v(supportDeskAfter(), supportDeskBefore());
    expect(game.plan.steps.map((s) => [s.name, s.change])).toEqual([['parse', 'unchanged'], ['retriever', 'changed'], ['writer', 'changed'], ['reviewer', 'unchanged']]);
    const cases = JSON.parse(readFileSync(SUPPORT_DESK_CASES_FILE, 'utf8')) as CaseDef[];
    const warranty = analyse(game.source, cases.find((c) => c.id === 'warranty-repair')!) as AttributedCaseResult;
    // Hand computation over the two changes (S = steps reverted): v({}) = 0, v({retriever}) = 1,
    // v({writer}) = 0 (the earlier writer still reads the wrong documents), v(both) = 1.
    expect(warranty.vEmpty).toBe(0);
    expect(warranty.vAll).toBe(1);
    expect(warranty.shapley).toEqual({ parse: 0, retriever: 1, writer: 0, reviewer: 0 });
    // The reverse game runs the earlier version: the case the change fixed fails there.
    const delivery = analyse(game.reverseSource, cases.find((c) => c.id === 'delivery-speed')!);
    expect(delivery.failed).toBe(true);
    expect(analyse(game.source, cases.find((c) => c.id === 'delivery-speed')!).failed).toBe(false);
  });

  it('reads its plan back from its own source (a stored game), and nothing from another definition', () => {
    const game = v(supportDeskAfter(), supportDeskBefore());
    const stored = storedRegressionGame(game.source);
    expect(stored?.steps).toEqual(game.plan.steps.map((s) => ({ name: s.name, change: s.change })));
    expect(stored?.reverseSource).toBe(game.reverseSource);
    expect(storedRegressionGame(game.reverseSource)).toBeNull();
    expect(storedRegressionGame(supportDeskBefore())).toBeNull();
    // A forged plan (a change kind the game does not know) is not read.
    expect(storedRegressionGame(game.source.replace('"change":"changed"', '"change":"__proto__"'))).toBeNull();
  });

  it('gives an added step with one input its absence as the fix: it passes that input through', () => {
    const before = definition([['a', ['x'], '({ x }) => x'], ['out', ['a'], '({ a }) => a']]);
    const after = definition([['a', ['x'], '({ x }) => x'], ['double', ['a'], '({ a }) => a * 2'], ['out', ['double'], '({ double }) => double']]);
    const game = v(after, before);
    expect(game.plan.steps.map((s) => [s.name, s.change, s.passThrough])).toEqual([['a', 'unchanged', undefined], ['double', 'added', 'a'], ['out', 'changed', undefined]]);
    // x = 3, want 3: fails now (6); removing "double" alone passes 3 to the later "out", which reads it: fixed.
    const r = analyse(game.source, { id: 'c', inputs: { x: 3, want: 3 } }) as AttributedCaseResult;
    expect(r.failed).toBe(true);
    expect(r.fixAlone).toEqual({ a: 0, double: 1, out: 1 });
    expect(r.shapley).toEqual({ a: 0, double: 0.5, out: 0.5 });
  });

  it('places a removed step where it was, absent as run and restored by its fix', () => {
    const before = definition([['a', ['x'], '({ x }) => x'], ['clip', ['a'], '({ a }) => Math.min(a, 5)'], ['out', ['clip'], '({ clip }) => clip']]);
    const after = definition([['a', ['x'], '({ x }) => x'], ['out', ['a'], '({ a }) => a']]);
    const game = v(after, before);
    expect(game.plan.steps.map((s) => [s.name, s.change])).toEqual([['a', 'unchanged'], ['clip', 'removed'], ['out', 'changed']]);
    // x = 9, want 5: fails now; the earlier "out" reads "clip", which passes 9 through while absent: both must be reverted.
    const r = analyse(game.source, { id: 'c', inputs: { x: 9, want: 5 } }) as AttributedCaseResult;
    expect(r.shapley).toEqual({ a: 0, clip: 0.5, out: 0.5 });
    expect(r.fixAlone).toEqual({ a: 0, clip: 0, out: 0 });
  });

  it('refuses an added step whose absence the definition does not allow, naming it and its readers', () => {
    const before = definition([['a', ['x'], '({ x }) => x'], ['out', ['a'], '({ a }) => a']]);
    const after = definition([['a', ['x'], '({ x }) => x'], ['mix', ['a', 'x'], '({ a, x }) => a + x'], ['out', ['mix'], '({ mix }) => mix']]);
    expect(() => v(after, before)).toThrow(RegressionPlanError);
    expect(() => v(after, before)).toThrow(/step "mix" was added and has 2 inputs \("a", "x"\).*"out" \(now\) reads it/);
  });

  it('refuses a name that is a step in one version and a case input in the other', () => {
    const before = definition([['a', ['x'], '({ x }) => x'], ['out', ['a'], '({ a }) => a']]);
    const after = definition([['x', ['y'], '({ y }) => y'], ['a', ['x'], '({ x }) => x'], ['out', ['a'], '({ a }) => a']]);
    expect(() => v(after, before)).toThrow(/reads the case input "x" in the earlier version, which is a step in the later version/);
  });

  it("judges both versions by the later one's metric and threshold, and says where the earlier one's differ", () => {
    const before = definition([['a', ['x'], '({ x }) => x'], ['out', ['a'], '({ a }) => a']]);
    const after = before.replace('metric: (o, i) => (o.out === i.want ? 1 : 0),', 'metric: (o, i) => (o.out >= i.want ? 1 : 0),\n  threshold: 0.5,');
    expect(v(after, before).plan.notes).toEqual([
      'the metric differs between the two versions: both are scored with the later one',
      'the threshold differs (1 before, 0.5 now): both versions are judged by 0.5',
    ]);
    expect(v(before, before).plan.notes).toEqual([]);
  });

  it('names the file of a version that does not compile', () => {
    const good = definition([['a', ['x'], '({ x }) => x']]);
    expect(() => v(good, 'export default { name: "b", steps: [] , metric: () => 1 }')).toThrow(DefinitionError);
    expect(() => v(good, 'export default { name: "b", steps: [] , metric: () => 1 }')).toThrow(/before\.js/);
  });

  it('keeps a hostile step name a string in the generated source', () => {
    const name = '"]; throw 1; //\u2028</script>`${x}\\';
    const source = definition([[name, ['x'], '({ x }) => x'], ['out', [name], `(i) => i[${JSON.stringify(name)}]`]]);
    const game = v(source, source);
    const r = analyse(game.source, { id: 'c', inputs: { x: 1, want: 2 } }) as AttributedCaseResult;
    expect(Object.keys(r.shapley)).toEqual([name, 'out']);
  });
});
