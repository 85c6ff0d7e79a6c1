/**
 * Posterior worlds after the first replay their factual run from a template instead of running
 * the steps again (src/engine/replay.ts, FactualTemplate). Each world must come out exactly as
 * if its own factual run had been executed: same abducted Gumbels, costs, outputs and v(S).
 */
import { describe, expect, it } from 'vitest';
import { WorldNoise } from './noise.ts';
import { Replayer } from './replay.ts';
import type { CaseDef, PipelineDef } from './types.ts';

/** Three steps with observed choices; `extraDraw` adds a draw nobody observed to the second step. */
/** `executions()` counts runs of the as-run `fetch` step. */
function pipeline(extraDraw: boolean, executions = { count: 0 }): PipelineDef {
  return {
    name: 'observed-only',
    steps: [
      { name: 'plan', inputs: ['q'], cost: 1, run: ({ q }, noise) => `${q}:${noise.categorical({ a: 1, b: 0.5 }, 'k')}`, fixes: [{ name: 'fix', cost: 2, run: ({ q }, noise) => `${q}:${noise.categorical({ a: 3, b: 0 }, 'k')}` }] },
      {
        name: 'fetch', inputs: ['plan'], cost: 3,
        run: ({ plan }, noise) => {
          executions.count++;
          return `${plan}/${noise.categorical({ gold: 0.2, stale: 0.9, none: -1 }, 'doc')}${extraDraw ? `/${noise.int(5, 'extra')}` : ''}`;
        },
        fixes: [{ name: 'rerank', cost: 1, run: ({ plan }, noise) => `${plan}/${noise.categorical({ gold: 2, stale: 0.1, none: -1 }, 'doc')}` }],
      },
      { name: 'answer', inputs: ['fetch'], cost: 1, run: ({ fetch }, noise) => (String(fetch).includes('gold') ? noise.categorical({ ok: 2, bad: 0 }) : 'bad'), fixes: [{ name: 'fix', cost: 1, run: () => 'ok' }] },
    ],
    metric: (outputs) => (outputs.answer === 'ok' ? 1 : 0),
  };
}

const CASE: CaseDef = { id: 'c1', inputs: { q: 'q' }, observed: { plan: { k: 'b' }, fetch: { doc: 'stale' } } };
const SEEDS = [11, 22, 33, 44];

function replayer(def: PipelineDef, seeds: number[]): Replayer {
  return new Replayer(def, CASE, seeds.map((s) => new WorldNoise(s)), [0, 0, 0], {}, CASE.observed);
}

/** Everything a world's replays show: factual outputs and score, every v(S), abducted draws. */
function worldPicture(r: Replayer, w: number) {
  const factual = r.runWorld(w, 0);
  const values = Array.from({ length: 8 }, (_, mask) => r.runWorld(w, mask).score);
  // Read field by field: a replayed world's Gumbels are computed when first read (DeferredAbduction).
  const abducted = [...r.worlds[w].abducted].map(([step, byKey]) => [step, [...byKey].map(([key, d]) => [key, { logits: d.logits, chosen: d.chosen, gumbels: d.gumbels }])]);
  return { outputs: factual.outputs, score: factual.score, values, abducted };
}

describe('posterior factual runs replayed from the first world', () => {
  it('give every world exactly what its own factual run gives, and charge the same cost', () => {
    const shared = replayer(pipeline(false), SEEDS);
    const pictures = SEEDS.map((_, w) => worldPicture(shared, w));
    SEEDS.forEach((seed, w) => {
      const alone = replayer(pipeline(false), [seed]);
      expect(pictures[w]).toEqual(worldPicture(alone, 0));
    });
    const costs = SEEDS.map((seed) => {
      const alone = replayer(pipeline(false), [seed]);
      for (let mask = 0; mask < 8; mask++) alone.runWorld(0, mask);
      return alone.spent;
    });
    expect(shared.spent).toBe(costs.reduce((a, b) => a + b));
  });

  it('do not run the steps again', () => {
    const executions = { count: 0 };
    const r = replayer(pipeline(false, executions), SEEDS);
    SEEDS.forEach((_, w) => r.runWorld(w, 0));
    expect(executions.count).toBe(1);
    expect(r.executions).toBe(3 * SEEDS.length);
  });

  it('are not used when the factual run draws noise nobody observed (its outputs vary by world)', () => {
    const executions = { count: 0 };
    const shared = replayer(pipeline(true, executions), SEEDS);
    const outputs = SEEDS.map((_, w) => shared.runWorld(w, 0).outputs.fetch);
    expect(executions.count).toBe(SEEDS.length);
    SEEDS.forEach((seed, w) => expect(outputs[w]).toBe(replayer(pipeline(true), [seed]).runWorld(0, 0).outputs.fetch));
    expect(new Set(outputs).size).toBeGreaterThan(1);
  });
});
