import { validatePipeline, type ValidPipeline } from './pipeline.ts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { abductGumbels } from './abduction.ts';
import { gumbelFromUniform } from './gumbel.ts';
import { seededRng } from './rng.ts';
import { analyzeCase } from './analyze.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { gumbelRetriever } from './testing/gumbel-retriever.ts';
import type { PipelineDef, Rng } from './types.ts';
import { CHI2_999, chiSquareTwoSample, mean, variance } from './testing/statistics.ts';

type Logits = Record<string, number>;

function argmax(logits: Logits, g: Logits): string {
  let best = '';
  let score = -Infinity;
  for (const o of Object.keys(logits)) {
    const s = logits[o] + g[o];
    if (s > score) {
      score = s;
      best = o;
    }
  }
  return best;
}

/** Posterior Gumbels by rejection: draw i.i.d. standard Gumbels, keep those whose Gumbel-max choice is `chosen`. */
function rejectionSample(logits: Logits, chosen: string, count: number, rng: Rng): Logits[] {
  const out: Logits[] = [];
  while (out.length < count) {
    const g: Logits = {};
    for (const o of Object.keys(logits)) g[o] = gumbelFromUniform(1 - rng()); // 1 - [0,1) lies in (0, 1]
    if (Number.isFinite(Object.values(g).reduce((a, b) => a + b)) && argmax(logits, g) === chosen) out.push(g);
  }
  return out;
}

function abductedSample(logits: Logits, chosen: string, count: number, rng: Rng): Logits[] {
  const open = () => {
    let u = rng();
    while (u === 0) u = rng();
    return u;
  };
  return Array.from({ length: count }, () => abductGumbels(logits, chosen, open(), () => open()));
}

const COUNT = 20_000;

describe('abductGumbels against rejection sampling', () => {
  const cases: { logits: Logits; chosen: string; counterfactual: Logits }[] = [
    // The observed choice is not the most likely one.
    { logits: { a: 0.5, b: 1.2, c: -0.3, d: 0 }, chosen: 'a', counterfactual: { a: 0, b: 0.3, c: 1, d: 0.2 } },
    // The observed choice is the most likely one; the fix lowers it.
    { logits: { gold: 1, stale: 1.3 }, chosen: 'stale', counterfactual: { gold: 3, stale: 0.2 } },
    // Three options with an impossible one.
    { logits: { x: 2, y: -1, z: -Infinity }, chosen: 'y', counterfactual: { x: 0, y: 0, z: 1 } },
  ];

  for (const { logits, chosen, counterfactual } of cases) {
    it(`matches for logits ${Object.entries(logits).map(([o, l]) => `${o}=${l}`).join(' ')}, observed ${chosen}`, () => {
      const options = Object.keys(logits);
      const reference = rejectionSample(logits, chosen, COUNT, seededRng(1234));
      const abducted = abductedSample(logits, chosen, COUNT, seededRng(99));

      // The observed choice is always the argmax under the factual logits.
      expect(abducted.every((g) => argmax(logits, g) === chosen)).toBe(true);

      // Same distribution of the counterfactual choice under new logits (two-sample chi-square).
      const cfCounts = (sample: Logits[]) => {
        const counts = options.map(() => 0);
        for (const g of sample) counts[options.indexOf(argmax(counterfactual, g))]++;
        return counts;
      };
      const [refCounts, abdCounts] = [cfCounts(reference), cfCounts(abducted)];
      const used = options.filter((_, i) => refCounts[i] + abdCounts[i] > 0);
      const stat = chiSquareTwoSample(refCounts, abdCounts);
      expect(stat).toBeLessThan(CHI2_999[Math.max(1, used.length - 1)]);

      // Same mean of every finite Gumbel (two-sample z within 4.5 standard errors).
      for (const o of options) {
        if (logits[o] === -Infinity) continue;
        const r = reference.map((g) => g[o]);
        const a = abducted.map((g) => g[o]);
        const se = Math.sqrt(variance(r) / COUNT + variance(a) / COUNT);
        expect(Math.abs(mean(r) - mean(a))).toBeLessThan(4.5 * se);
      }
    });
  }

  it('the maximum of the perturbed logits is Gumbel(logsumexp l): mean logsumexp + Euler gamma', () => {
    const logits = { a: 0.5, b: 1.2, c: -0.3 };
    const lse = Math.log(Math.exp(0.5) + Math.exp(1.2) + Math.exp(-0.3));
    const gamma = 0.5772156649015329;
    const maxima = abductedSample(logits, 'c', COUNT, seededRng(5)).map((g) => logits.c + g.c);
    // A Gumbel has variance pi^2 / 6.
    expect(Math.abs(mean(maxima) - (lse + gamma))).toBeLessThan(4.5 * Math.sqrt(Math.PI ** 2 / 6 / COUNT));
  });

  it('the argmax of l + abducted g is always the observed choice (random logits and uniforms)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -20, max: 20, noNaN: true }), { minLength: 2, maxLength: 8 }),
        fc.nat(),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (ls, pick, seed) => {
          const logits: Logits = Object.fromEntries(ls.map((l, i) => [`o${i}`, l]));
          const chosen = `o${pick % ls.length}`;
          const rng = seededRng(seed);
          const g = abductGumbels(logits, chosen, 1 - rng(), () => 1 - rng());
          expect(argmax(logits, g)).toBe(chosen);
          expect(Object.values(g).every(Number.isFinite)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects an observed choice that is not an option or is impossible', () => {
    expect(() => abductGumbels({ a: 1 }, 'b', 0.5, () => 0.5)).toThrow(/"b"/);
    expect(() => abductGumbels({ a: 1 }, 'toString', 0.5, () => 0.5)).toThrow(/"toString"/);
    expect(() => abductGumbels({ a: 1, b: -Infinity }, 'b', 0.5, () => 0.5)).toThrow(/-Infinity/);
  });
});

describe('posterior mode end to end', () => {
  /** retriever picks a document by Gumbel-max; the writer is right iff the document is gold. */
  const def = validatePipeline({
    name: 'rag',
    steps: [
      gumbelRetriever('question', { gold: 1, stale: 1.3 }, { gold: 3, stale: 0.2 }),
      { name: 'writer', inputs: ['retriever'], cost: 1, run: ({ retriever }) => retriever === 'gold', fixes: [{ name: 'same', cost: 1, run: ({ retriever }) => retriever === 'gold' }] },
    ],
    metric: (out) => (out.writer ? 1 : 0),
  });

  it('v(empty) is 0 and v(fix) matches the rejection-sampled counterfactual probability', () => {
    const worlds = 400;
    const result = analyzeCase(def, { id: 'q', inputs: { question: '?' }, observed: { retriever: { doc: 'stale' } }, score: 0 }, { ...DEFAULT_SETTINGS, mode: 'posterior', worlds, method: 'exact' });
    expect(result.error).toBeUndefined();
    expect(result.vEmpty).toBe(0);
    const reference = rejectionSample({ gold: 1, stale: 1.3 }, 'stale', 50_000, seededRng(77));
    const p = reference.filter((g) => 3 + g.gold > 0.2 + g.stale).length / reference.length;
    const se = Math.sqrt((p * (1 - p)) / worlds + (p * (1 - p)) / reference.length);
    expect(Math.abs(result.vAll - p)).toBeLessThan(4.5 * se);
  });
});
