import { describe, expect, it } from 'vitest';
import type { AnalysisSettings } from '../../engine/types.ts';
import { settingsKey } from './settings-key.ts';

/** Keys for a four-step pipeline unless told otherwise. */
const key = (settings: AnalysisSettings, fixes: Record<string, string>, steps = 4) => settingsKey(settings, fixes, steps);

const base: AnalysisSettings = {
  mode: 'recorded',
  worlds: 8,
  method: 'exact',
  delta: 0.05,
  stop: 'top1',
  width: 0.05,
  budget: Number.POSITIVE_INFINITY,
  maxPermutations: 10_000,
  radius: 'bernstein',
  estimator: 'permutation',
  seed: 0,
};
const defaults = { planner: 'date constraint', retriever: 'drop superseded' };

describe('settingsKey', () => {
  it('ignores worlds in recorded mode but not in posterior mode', () => {
    expect(key({ ...base, worlds: 16 }, defaults)).toBe(key(base, defaults));
    expect(key({ ...base, mode: 'posterior', worlds: 16 }, defaults)).not.toBe(key({ ...base, mode: 'posterior' }, defaults));
  });

  it('ignores Monte Carlo knobs for exact analysis only', () => {
    expect(key({ ...base, delta: 0.1, stop: 'ranking' }, defaults)).toBe(key(base, defaults));
    expect(key({ ...base, method: 'mc', delta: 0.1 }, defaults)).not.toBe(key({ ...base, method: 'mc' }, defaults));
    // 'auto' is exact while 2^n queries are within the sampling cap's (17 steps at 10 000), Monte Carlo above.
    expect(key({ ...base, method: 'auto', budget: 50 }, defaults)).toBe(key(base, defaults));
    expect(key({ ...base, method: 'auto', budget: 50 }, defaults, 17)).toBe(key({ ...base, method: 'auto' }, defaults, 17));
    expect(key({ ...base, method: 'auto', budget: 50 }, defaults, 18)).not.toBe(key({ ...base, method: 'auto' }, defaults, 18));
  });

  it('reads the width only under the width stop rule', () => {
    const mc = { ...base, method: 'mc' as const };
    expect(key({ ...mc, width: 0.2 }, defaults)).toBe(key(mc, defaults));
    expect(key({ ...mc, stop: 'width', width: 0.2 }, defaults)).not.toBe(key({ ...mc, stop: 'width' }, defaults));
  });

  it('treats choosing the default fix like choosing none, in any key order', () => {
    expect(key({ ...base, fixChoice: { planner: 'date constraint' } }, defaults)).toBe(key(base, defaults));
    const a = key({ ...base, fixChoice: { planner: 'oracle', retriever: 'rerank' } }, defaults);
    const b = key({ ...base, fixChoice: { retriever: 'rerank', planner: 'oracle' } }, defaults);
    expect(a).toBe(b);
    expect(a).not.toBe(key(base, defaults));
  });

  it('separates modes and seeds', () => {
    expect(key({ ...base, mode: 'prior' }, defaults)).not.toBe(key(base, defaults));
    expect(key({ ...base, seed: 1 }, defaults)).not.toBe(key(base, defaults));
  });
});
