import { describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze.ts';
import { DefinitionError } from './errors.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { validatePipeline, MAX_PLAYERS } from './pipeline.ts';
import { ESTIMATOR_NAMES } from './shapley/registry.ts';
import type { PipelineDef, StepDef } from './types.ts';
import { NUMBER_MASK_MAX_PLAYERS, complementOf, emptyCoalition, fullCoalition, hasPlayer, membersOf, singletonCoalition, withPlayer } from './coalition.ts';

/** n steps in a chain, each adding 1 when fixed; the metric is the share of fixed steps, so every step's Shapley value is exactly 1/n. */
function countingChain(n: number): PipelineDef {
  const steps: StepDef[] = Array.from({ length: n }, (_, i) => {
    const input = i === 0 ? 'start' : `s${i - 1}`;
    return { name: `s${i}`, inputs: [input], cost: 1, run: (x) => x[input] as number, fixes: [{ name: 'fix', cost: 1, run: (x) => (x[input] as number) + 1 }] };
  });
  return { name: `chain-${n}`, steps, metric: (out) => (out[`s${n - 1}`] as number) / n };
}

describe('coalitions above 52 players', () => {
  it('numbers up to 52 players, bigints above, with the same set operations', () => {
    expect(typeof fullCoalition(NUMBER_MASK_MAX_PLAYERS)).toBe('number');
    expect(typeof fullCoalition(NUMBER_MASK_MAX_PLAYERS + 1)).toBe('bigint');
    for (const n of [5, 52, 64, 100]) {
      let mask = emptyCoalition(n);
      for (const i of [0, 3, n - 1]) mask = withPlayer(mask, i);
      expect([...membersOf(mask, n)].flatMap((b, i) => (b ? [i] : []))).toEqual([0, 3, n - 1]);
      expect(hasPlayer(mask, n - 1)).toBe(true);
      expect(hasPlayer(complementOf(mask, n), n - 1)).toBe(false);
      expect(hasPlayer(complementOf(mask, n), 1)).toBe(true);
      expect(complementOf(emptyCoalition(n), n)).toBe(fullCoalition(n));
      expect(withPlayer(emptyCoalition(n), 2)).toBe(singletonCoalition(n, 2));
    }
  });

  it('a 64-step pipeline is analysed by every estimator: efficient values of 1/64 each, baselines and the full run right', () => {
    const n = 64;
    const def = validatePipeline(countingChain(n));
    for (const estimator of ESTIMATOR_NAMES) {
      const r = analyzeCase(def, { id: 'c', inputs: { start: 0 } }, { ...DEFAULT_SETTINGS, method: 'mc', estimator, stop: 'budget', maxPermutations: 2, worlds: 1 });
      if (r.error !== undefined) throw new Error(r.error);
      if (!r.failed) throw new Error('the case should fail');
      expect(r.vAll).toBe(1);
      expect(Object.values(r.shapley).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      for (const p of r.players) {
        // Every marginal of an additive game is its step's own term, so estimators that sample
        // orders are exact here; the kernel's samples are not marginals, but its interval holds.
        if (estimator === 'kernel') expect(r.ci![p][0] <= 1 / n && 1 / n <= r.ci![p][1]).toBe(true);
        else expect(r.shapley[p]).toBeCloseTo(1 / n, 12);
        expect(r.fixAlone![p]).toBeCloseTo(1 / n, 12);
        expect(r.leaveOneOut![p]).toBeCloseTo(1 / n, 12);
      }
      expect(r.lastTouch).toBe(`s${n - 1}`);
      expect(r.queries).toBeGreaterThan(0);
    }
  });

  it(`refuses pipelines above ${MAX_PLAYERS} steps, naming the limit`, () => {
    expect(() => validatePipeline(countingChain(MAX_PLAYERS + 1))).toThrow(DefinitionError);
    expect(() => validatePipeline(countingChain(MAX_PLAYERS + 1))).toThrow(`at most ${MAX_PLAYERS}`);
  });
});
