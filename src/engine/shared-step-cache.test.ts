import { describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze.ts';
import { validatePipeline, type ValidPipeline } from './pipeline.ts';
import { SharedStepCache } from './shared-step-cache.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import type { AnalysisSettings, CaseDef, StepRun } from './types.ts';

/**
 * Three steps: `parse` reads only the case's question and draws nothing (shareable across cases),
 * `pick` draws a choice in the case's world (never shareable), `reply` draws nothing but reads
 * `pick` (shareable when the pick coincides). Every execution is counted by step and variant.
 */
function counted(calls: Map<string, number>): ValidPipeline {
  const count = (label: string, run: StepRun): StepRun => (inputs, noise, tools) => {
    calls.set(label, (calls.get(label) ?? 0) + 1);
    return run(inputs, noise, tools);
  };
  const step = (name: string, inputs: string[], run: StepRun, fix: StepRun) => ({ name, inputs, cost: 2, run: count(`${name}0`, run), fixes: [{ name: `${name} fix`, cost: 3, run: count(`${name}1`, fix) }] });
  return validatePipeline({
    name: 'shared',
    steps: [
      step('parse', ['question'], ({ question }) => ({ words: String(question).split(' ').length }), ({ question }) => ({ words: String(question).split(' ').length, tagged: true })),
      step('pick', ['parse'], (_, n) => n.categorical({ good: 0, bad: 1 }, 'doc'), (_, n) => n.categorical({ good: 3, bad: 0 }, 'doc')),
      step('reply', ['parse', 'pick'], ({ pick }) => (pick === 'good' ? 'ok' : 'wrong'), ({ parse, pick }) => ((parse as { tagged?: boolean }).tagged && pick === 'good' ? 'ok' : 'wrong')),
    ],
    metric: (out) => (out.reply === 'ok' ? 1 : 0),
  });
}

const cases: CaseDef[] = Array.from({ length: 12 }, (_, k) => ({ id: `c${k}`, inputs: { question: k % 2 === 0 ? 'what is the margin' : 'margin?' }, seed: 100 + k }));
const exact: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact' };

function analyseAll(settings: AnalysisSettings, shared?: SharedStepCache) {
  const calls = new Map<string, number>();
  const def = counted(calls);
  const results = cases.map((c) => analyzeCase(def, c, settings, shared ? { shared } : {}));
  return { calls, results };
}

describe('SharedStepCache (step runs shared across cases)', () => {
  it('reuses a run that drew no noise for every later case with the same inputs: the same values, fewer runs, a lower cost', () => {
    const alone = analyseAll(exact);
    const shared = new SharedStepCache();
    const together = analyseAll(exact, shared);
    const strip = (r: (typeof alone.results)[number]) => ({ ...r, cost: 0, evaluations: 0 });
    expect(together.results.map(strip)).toEqual(alone.results.map(strip));
    // parse reads only the question, which takes two values: each variant runs twice in all.
    expect(together.calls.get('parse0')).toBe(2);
    expect(together.calls.get('parse1')).toBe(2);
    expect(alone.calls.get('parse0')).toBe(cases.length);
    // pick draws in each case's own world: never shared.
    expect(together.calls.get('pick0')).toBe(alone.calls.get('pick0'));
    expect(together.calls.get('pick1')).toBe(alone.calls.get('pick1'));
    // reply draws nothing: at most one run per distinct (parse, pick) and variant (4 parses x 2 picks).
    expect(together.calls.get('reply0')!).toBeLessThanOrEqual(8);
    expect(together.calls.get('reply0')!).toBeLessThan(alone.calls.get('reply0')!);
    expect(shared.hits).toBeGreaterThan(0);
    const cost = (rs: typeof alone.results) => rs.reduce((a, r) => a + r.cost, 0);
    expect(cost(together.results)).toBeLessThan(cost(alone.results));
  });

  it('is not used in posterior mode (the factual run abducts from the case record)', () => {
    const posterior: AnalysisSettings = { ...exact, mode: 'posterior', worlds: 2 };
    const alone = analyseAll(posterior);
    const shared = new SharedStepCache();
    const together = analyseAll(posterior, shared);
    expect(together.calls).toEqual(alone.calls);
    expect(shared.size).toBe(0);
  });

  it('keys by the fix chosen: a step whose fixes differ is never served the other fix output', () => {
    const cache = new SharedStepCache();
    const a = cache.keyOf(0, 'step "parse" (fix "one")', { question: 'q' });
    const b = cache.keyOf(0, 'step "parse" (fix "two")', { question: 'q' });
    expect(a).not.toBe(b);
    cache.set(a!, 1);
    expect(cache.get(b!)).toBeUndefined();
    expect(cache.get(a!)).toEqual({ value: 1 });
  });
});
