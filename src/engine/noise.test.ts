import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createStepNoise, WorldNoise } from './noise.ts';
import { unitFromHash } from './hash.ts';
import { gumbelFromUniform } from './gumbel.ts';
import { ensembleWorldSeed } from './world.ts';
import { Replayer } from './replay.ts';
import type { Noise, PipelineDef, StepRun } from './types.ts';
import { CHI2_999, chiSquare, correlation, ksUniform, mean, softmax, variance } from './testing/statistics.ts';

const N = 10_000;
/** KS critical value at alpha = 0.05 for large n (Smirnov's asymptotic distribution). */
const KS_05 = 1.36 / Math.sqrt(N);
/** Sample correlation of independent pairs is about N(0, 1/N): 4.5 standard errors. */
const CORR_BOUND = 4.5 / Math.sqrt(N);

function handle(seed: number, step = 'step'): Noise {
  return createStepNoise(new WorldNoise(seed), step);
}

const keys = Array.from({ length: N }, (_, i) => `k${i + 1}`);

describe('addressed noise: uniformity and independence', () => {
  it('uniform over many keys passes a KS test and stays in the open interval', () => {
    const noise = handle(7);
    const us = keys.map((k) => noise.uniform(k));
    expect(us.every((u) => u > 0 && u < 1)).toBe(true);
    expect(ksUniform(us)).toBeLessThan(KS_05);
  });

  it('uniform over many neighbouring worlds (one key) passes a KS test', () => {
    const us = keys.map((_, w) => handle(w).uniform('k'));
    expect(ksUniform(us)).toBeLessThan(KS_05);
    const ens = keys.map((_, w) => handle(ensembleWorldSeed(5, 'posterior', w)).uniform());
    expect(ksUniform(ens)).toBeLessThan(KS_05);
  });

  it('neighbouring keys, worlds, options and steps are uncorrelated', () => {
    const world = new WorldNoise(3);
    const next = new WorldNoise(4);
    const a = keys.map((k) => world.uniform('s', k, 'o'));
    const byNextKey = keys.map((_, i) => world.uniform('s', `k${i + 2}`, 'o'));
    const byNextWorld = keys.map((k) => next.uniform('s', k, 'o'));
    const byOtherOption = keys.map((k) => world.uniform('s', k, 'o2'));
    const byOtherStep = keys.map((k) => world.uniform('t', k, 'o'));
    for (const other of [byNextKey, byNextWorld, byOtherOption, byOtherStep]) {
      expect(Math.abs(correlation(a, other))).toBeLessThan(CORR_BOUND);
    }
    // Ensemble worlds w and w + 1 of one case.
    const w0 = keys.map((k) => new WorldNoise(ensembleWorldSeed(11, 'prior', 0)).uniform('s', k, 'o'));
    const w1 = keys.map((k) => new WorldNoise(ensembleWorldSeed(11, 'prior', 1)).uniform('s', k, 'o'));
    expect(Math.abs(correlation(w0, w1))).toBeLessThan(CORR_BOUND);
  });

  it('normal has mean 0 and variance 1', () => {
    const noise = handle(21);
    const xs = keys.map((k) => noise.normal(k));
    // Standard errors: 1/sqrt(N) for the mean, sqrt(2/N) for the variance of a normal sample.
    expect(Math.abs(mean(xs))).toBeLessThan(4.5 / Math.sqrt(N));
    expect(Math.abs(variance(xs) - 1)).toBeLessThan(4.5 * Math.sqrt(2 / N));
    // Normal draws map to a uniform through the normal CDF; check via the fraction below 1.
    const below1 = xs.filter((x) => x < 1).length / N;
    expect(Math.abs(below1 - 0.8413447460685429)).toBeLessThan(4.5 * Math.sqrt(0.8413 * 0.1587 / N));
  });

  it('categorical frequencies over many worlds match softmax(logits)', () => {
    const logits = { a: 0, b: 1, c: -0.5, d: 2 };
    const names = Object.keys(logits);
    const counts = names.map(() => 0);
    for (let w = 0; w < N; w++) counts[names.indexOf(handle(w, 'pick').categorical(logits, 'q'))]++;
    expect(chiSquare(counts, softmax(Object.values(logits)))).toBeLessThan(CHI2_999[3]);
  });

  it('categorical never picks an option with logit -Infinity and rejects bad logits', () => {
    for (let w = 0; w < 500; w++) expect(handle(w).categorical({ x: -Infinity, y: -3, z: -Infinity })).toBe('y');
    expect(() => handle(1).categorical({})).toThrow(/no options/);
    expect(() => handle(1).categorical({ a: NaN })).toThrow(/"a"/);
    expect(() => handle(1).categorical({ a: Infinity })).toThrow(/"a"/);
    expect(() => handle(1).categorical({ a: -Infinity, b: -Infinity })).toThrow(/-Infinity/);
  });

  it('bernoulli, int and choice have the right ranges and frequencies', () => {
    const p = 0.3;
    const bern = keys.map((k, i) => handle(i).bernoulli(p, k));
    const rate = bern.filter(Boolean).length / N;
    expect(Math.abs(rate - p)).toBeLessThan(4.5 * Math.sqrt((p * (1 - p)) / N));
    for (let i = 0; i < 50; i++) {
      expect(handle(i).bernoulli(0)).toBe(false);
      expect(handle(i).bernoulli(1)).toBe(true);
    }

    const ints = keys.map((k) => handle(99).int(7, k));
    expect(ints.every((x) => Number.isInteger(x) && x >= 0 && x < 7)).toBe(true);
    const intCounts = Array.from({ length: 7 }, (_, v) => ints.filter((x) => x === v).length);
    expect(chiSquare(intCounts, new Array(7).fill(1 / 7))).toBeLessThan(CHI2_999[6]);

    const items = ['red', 'green', 'blue'];
    const picks = keys.map((k) => handle(5).choice(items, k));
    const choiceCounts = items.map((it) => picks.filter((x) => x === it).length);
    expect(choiceCounts.reduce((a, b) => a + b, 0)).toBe(N);
    expect(chiSquare(choiceCounts, [1 / 3, 1 / 3, 1 / 3])).toBeLessThan(CHI2_999[2]);

    expect(() => handle(1).int(0)).toThrow(RangeError);
    expect(() => handle(1).int(2.5)).toThrow(RangeError);
    expect(() => handle(1).bernoulli(1.5)).toThrow(RangeError);
    expect(() => handle(1).choice([])).toThrow(RangeError);
    expect(() => handle(1).uniform(3 as unknown as string)).toThrow(TypeError);
  });

  it('the same address always gives the same draw; an omitted key is the default key', () => {
    const a = handle(42);
    const b = handle(42);
    expect(a.uniform('x')).toBe(b.uniform('x'));
    expect(a.uniform()).toBe(b.uniform('default'));
    expect(a.gumbel('x', 'o')).toBe(gumbelFromUniform(new WorldNoise(42).uniform('step', 'x', 'o')));
    expect(a.uniform('x')).not.toBe(a.uniform('y'));
  });

  it('unitFromHash never returns 0 or 1, even at the extreme hashes', () => {
    expect(unitFromHash(0)).toBeGreaterThan(0);
    expect(unitFromHash(2 ** 53 - 1)).toBeLessThan(1);
    expect(Number.isFinite(gumbelFromUniform(unitFromHash(2 ** 53 - 1)))).toBe(true);
    expect(Number.isFinite(gumbelFromUniform(unitFromHash(0)))).toBe(true);
    // Still increasing at the top, so the map keeps the order of hashes.
    expect(unitFromHash(2 ** 53 - 3)).toBeLessThanOrEqual(unitFromHash(2 ** 53 - 1));
  });
});

/** B's draws in one run, as plain data. */
function draws(noise: Noise) {
  return {
    u: noise.uniform('x'),
    n: noise.normal('y'),
    c: noise.categorical({ p: 0, q: 0.5, r: 1 }, 'z'),
    i: noise.int(1000, 'w'),
    b: noise.bernoulli(0.5, 'v'),
    ch: noise.choice(['s', 't', 'u', 'v'], 't'),
    g: noise.gumbel('z', 'p'),
  };
}

/** A -> B -> C, where A's fix makes many extra draws and every step records its draws. */
function crnPipeline(): PipelineDef {
  const asRunA: StepRun = (_, noise) => ({ a: noise.uniform('a') });
  const fixA: StepRun = (_, noise) => {
    const extra = Array.from({ length: 5 }, (_, i) => noise.uniform(`extra${i}`));
    return { a: 'fixed', extra, pick: noise.categorical({ m: 1, n: 2 }, 'a') };
  };
  const runB: StepRun = (inputs, noise) => ({ seenA: inputs.A, ...draws(noise) });
  const runC: StepRun = (inputs, noise) => ({ seenB: (inputs.B as { u: number }).u, ...draws(noise) });
  return {
    name: 'crn',
    steps: [
      { name: 'A', inputs: ['q'], cost: 1, run: asRunA, fixes: [{ name: 'A fix', cost: 1, run: fixA }] },
      // B's fix draws the same addresses: the draws do not depend on the variant.
      { name: 'B', inputs: ['A'], cost: 1, run: runB, fixes: [{ name: 'B fix', cost: 1, run: (i, n) => ({ fixed: true, ...draws(n) }) }] },
      { name: 'C', inputs: ['B'], cost: 1, run: runC, fixes: [{ name: 'C fix', cost: 1, run: runC }] },
    ],
    metric: () => 0,
  };
}

describe('addressed noise: common random numbers across variants', () => {
  it('switching one step variant never changes any other step draws', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (seed) => {
        const def = crnPipeline();
        const replayer = new Replayer(def, { id: 'c', inputs: { q: 1 } }, [new WorldNoise(seed)], [0, 0, 0]);
        const runs = Array.from({ length: 8 }, (_, mask) => replayer.runWorld(0, mask).outputs);
        const strip = (o: unknown) => {
          const { seenA, seenB, fixed, ...rest } = o as Record<string, unknown>;
          void seenA, void seenB, void fixed;
          return rest;
        };
        const bDraws = strip(runs[0].B);
        const cDraws = strip(runs[0].C);
        for (let mask = 0; mask < 8; mask++) {
          // A fixed or not, B as-run or fixed: B's draws are the same; so are C's.
          expect(strip(runs[mask].B)).toEqual(bDraws);
          expect(strip(runs[mask].C)).toEqual(cDraws);
        }
        // B really re-ran with a different input when A was fixed (no accidental cache hit).
        expect(runs[1].B).not.toEqual(runs[0].B);
      }),
      { numRuns: 30 },
    );
  });

  it('unchanged logits reproduce the factual choice, also with other draws changed around it', () => {
    const logitsArb = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.double({ min: -5, max: 5, noNaN: true }), { minKeys: 2 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), logitsArb, (seed, logits) => {
        const factual = handle(seed).categorical(logits, 'k');
        // A fix that draws other things first, then the same logits under the same key.
        const fix = handle(seed);
        fix.uniform('first');
        fix.categorical({ other: 1, options: 2 }, 'elsewhere');
        expect(fix.categorical({ ...logits }, 'k')).toBe(factual);
        // Counterfactual stability: raising the chosen option's logit keeps it chosen.
        expect(handle(seed).categorical({ ...logits, [factual]: logits[factual] + 1 }, 'k')).toBe(factual);
      }),
      { numRuns: 200 },
    );
  });

  it('in a posterior world, the abducted draw reproduces the observed choice for unchanged logits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.constantFrom('gold', 'stale', 'junk'), (seed, observed) => {
        const world = new WorldNoise(seed);
        const logits = { gold: 1, stale: 1.3, junk: -2 };
        const factual = createStepNoise(world, 'retriever', { abductFrom: { doc: observed } });
        expect(factual.categorical(logits, 'doc')).toBe(observed);
        const later = createStepNoise(world, 'retriever');
        expect(later.categorical({ ...logits }, 'doc')).toBe(observed);
        // The abducted Gumbels make the observed option the argmax of logits + noise.
        const scores = Object.entries(logits).map(([o, l]) => [o, l + later.gumbel('doc', o)] as const);
        const best = scores.reduce((a, b) => (b[1] > a[1] ? b : a));
        expect(best[0]).toBe(observed);
        // Other keys of the same step are not abducted.
        expect(later.gumbel('other', 'gold')).toBe(gumbelFromUniform(world.uniform('retriever', 'other', 'gold')));
      }),
      { numRuns: 100 },
    );
  });

  it('keys and options named like Object.prototype members are ordinary addresses', () => {
    const world = new WorldNoise(9);
    const factual = createStepNoise(world, 's', { abductFrom: { pick: 'constructor' } });
    expect(factual.categorical({ constructor: 0, toString: 0.5 }, 'pick')).toBe('constructor');
    const later = createStepNoise(world, 's');
    expect(Number.isFinite(later.gumbel('pick', 'constructor'))).toBe(true);
    // A key named "constructor" with observations of other keys present: no abduction, no error.
    expect(['x', 'y']).toContain(factual.categorical({ x: 0, y: 0 }, 'constructor'));
    // An option absent from the abduction gets the prior Gumbel.
    expect(later.gumbel('pick', 'valueOf')).toBe(gumbelFromUniform(world.uniform('s', 'pick', 'valueOf')));
  });
});

describe('reserved option names', () => {
  it('refuses options that would share an address with the engine\'s own draws', () => {
    const noise = createStepNoise(new WorldNoise(1), 'step');
    expect(() => noise.categorical({ '#uniform': 1, b: 0 })).toThrow(/"#uniform" starts with "#", which is reserved/);
    expect(() => noise.gumbel('k', '#abduct-max')).toThrow(/reserved/);
    expect(() => noise.categorical({ a: 1, b: 0 })).not.toThrow();
  });
});
