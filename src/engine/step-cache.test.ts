import { validatePipeline, type ValidPipeline } from './pipeline.ts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeCase } from './analyze.ts';
import { BlameGame } from './blame-game.ts';
import { Replayer } from './replay.ts';
import { canonicalize } from './canonical.ts';
import { createStepNoise, WorldNoise } from './noise.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { caseWorldSeed, ensembleWorldSeed } from './world.ts';
import type { AnalysisSettings, CaseDef, PipelineDef, StepRun } from './types.ts';
import { refundPipeline } from './testing/refund.ts';
import { has } from './testing/games.ts';

/**
 * Four stochastic steps whose outputs often coincide across variants, so that the cache has
 * work to do; every variant has its own cost so that a mis-charge shows.
 */
function stochasticPipeline(): ValidPipeline {
  const s = (name: string, inputs: string[], cost: number, fixCost: number, run: StepRun, fix: StepRun) => ({ name, inputs, cost, run, fixes: [{ name: `${name} fix`, cost: fixCost, run: fix }] });
  return validatePipeline({
    name: 'stochastic',
    steps: [
      s('s0', ['q'], 1, 7, (_, n) => ({ k: n.int(3, 'x'), probe: n.uniform('probe') }), (_, n) => ({ k: (n.int(3, 'x') + 1) % 3, probe: n.uniform('probe') })),
      s('s1', ['s0'], 2, 11, ({ s0 }) => ((s0 as { k: number }).k > 0 ? 'hi' : 'lo'), () => 'hi'),
      s('s2', ['s1', 'q'], 3, 13, ({ s1 }, n) => ({ v: s1, r: n.bernoulli(0.5, 'b') }), ({ s1 }, n) => ({ v: s1, r: n.bernoulli(0.8, 'b') })),
      s('s3', ['s2'], 5, 17, ({ s2 }) => ((s2 as { v: string; r: boolean }).v === 'hi' && (s2 as { r: boolean }).r ? 1 : 0), ({ s2 }) => ((s2 as { v: string }).v === 'hi' ? 1 : 0)),
    ],
    metric: (out) => out.s3 as number,
  });
}

/** The address of one execution: (world, step, variant, canonical inputs). The world is identified by the step's own probe draw. */
function executionKey(world: number | string, step: string, variant: number, inputs: unknown): string {
  return `${world}|${step}|${variant}|${canonicalize(inputs)}`;
}

/** Wrap every step and fix so that each call records its execution key. */
function instrument(def: PipelineDef, calls: string[]): ValidPipeline {
  return validatePipeline({
    ...def,
    steps: def.steps.map((step) => ({
      ...step,
      run: (inputs, noise) => {
        calls.push(executionKey(noise.uniform('#world'), step.name, 0, inputs));
        return step.run(inputs, noise);
      },
      fixes: step.fixes.map((fix, j) => ({
        ...fix,
        run: (inputs, noise) => {
          calls.push(executionKey(noise.uniform('#world'), step.name, j + 1, inputs));
          return fix.run(inputs, noise);
        },
      })),
    })),
  });
}

/**
 * The executions exact analysis needs, found by a naive replay with no cache: every coalition
 * in every world, every step. Returns distinct execution key -> cost.
 */
function neededExecutions(def: PipelineDef, c: CaseDef, worldSeeds: number[], masks: (w: number) => number[]): Map<string, number> {
  const needed = new Map<string, number>();
  worldSeeds.forEach((seed, w) => {
    for (const mask of masks(w)) {
      const outputs: Record<string, unknown> = {};
      def.steps.forEach((step, i) => {
        const fixed = has(mask, i);
        const inputs = Object.fromEntries(step.inputs.map((name) => [name, name in outputs ? outputs[name] : c.inputs[name]]));
        const noise = createStepNoise(new WorldNoise(seed), step.name);
        needed.set(executionKey(noise.uniform('#world'), step.name, fixed ? 1 : 0, inputs), fixed ? step.fixes[0].cost : step.cost);
        outputs[step.name] = (fixed ? step.fixes[0].run : step.run)(inputs, noise);
      });
    }
  });
  return needed;
}

/** One replay of coalition `mask` in the world with this seed, no cache: the step outputs by name. */
function plainReplay(def: PipelineDef, c: CaseDef, seed: number, mask: number): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  def.steps.forEach((step, i) => {
    const inputs = Object.fromEntries(step.inputs.map((name) => [name, name in outputs ? outputs[name] : c.inputs[name]]));
    outputs[step.name] = (has(mask, i) ? step.fixes[0].run : step.run)(inputs, createStepNoise(new WorldNoise(seed), step.name));
  });
  return outputs;
}

const allMasks = (n: number) => Array.from({ length: 2 ** n }, (_, m) => m);
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('step cache and cost meter', () => {
  it('exact analysis in recorded mode runs and charges each distinct execution exactly once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (seed) => {
        const calls: string[] = [];
        const def = stochasticPipeline();
        const c: CaseDef = { id: 'c', inputs: { q: 'question' }, seed };
        const r = analyzeCase(instrument(def, calls), c, { ...DEFAULT_SETTINGS, method: 'exact' });
        expect(r.error).toBeUndefined();
        expect(new Set(calls).size).toBe(calls.length);
        // A failure needs every coalition; a success only v(empty) and v(all).
        const needed = neededExecutions(def, c, [seed], () => (r.failed ? allMasks(4) : [0, 15]));
        expect(new Set(calls)).toEqual(new Set(needed.keys()));
        expect(r.cost).toBe(sum(needed));
        expect(r.evaluations).toBe(r.failed ? 16 : 2);
      }),
      { numRuns: 40 },
    );
  });

  it('prior mode: the ensemble worlds plus the recorded factual run, each execution once', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const calls: string[] = [];
      const def = stochasticPipeline();
      const c: CaseDef = { id: 'c', inputs: { q: 'question' }, seed, score: 0 };
      const worlds = 6;
      const r = analyzeCase(instrument(def, calls), c, { ...DEFAULT_SETTINGS, method: 'exact', mode: 'prior', worlds });
      expect(r.error).toBeUndefined();
      expect(new Set(calls).size).toBe(calls.length);
      const seeds = [seed, ...Array.from({ length: worlds }, (_, w) => ensembleWorldSeed(seed, 'prior', w))];
      // The recorded world only runs its factual coalition (to score the case); the ensemble runs all.
      const needed = neededExecutions(def, c, seeds, (w) => (w === 0 ? [0] : allMasks(4)));
      expect(new Set(calls)).toEqual(new Set(needed.keys()));
      expect(r.cost).toBe(sum(needed));
    }
  });

  it('the refund pipeline costs 22 for exact analysis', () => {
    // Distinct executions (cost): planner as-run and fix (1 each) = 2; retriever as-run on the
    // two planner outputs and its fix on both (cost 2 each) = 8; writer as-run and fix on the
    // two retriever outputs = 4; reviewer as-run and fix on the four writer outputs = 8.
    const r = analyzeCase(refundPipeline('A'), { id: 'refund', inputs: { question: 'refund window?' } }, { ...DEFAULT_SETTINGS, method: 'exact' });
    expect(r.cost).toBe(22);
    expect(r.evaluations).toBe(16);
  });

  it('posterior and prior worlds are shared by all coalitions', () => {
    // v(S) must be the mean, over the same ensemble worlds for every S, of a plain replay of S in
    // that world. (No observations here, so posterior worlds need no abduction.)
    const def = stochasticPipeline();
    for (const mode of ['posterior', 'prior'] as const) {
      for (const seed of [12, 13]) {
        const c: CaseDef = { id: 'shared', inputs: { q: 1 }, seed, observed: { s2: {} } };
        const worlds = 5;
        const game = new BlameGame(def, c, { mode, worlds } as AnalysisSettings);
        const caseSeed = caseWorldSeed('shared', seed);
        const seeds = Array.from({ length: worlds }, (_, w) => ensembleWorldSeed(caseSeed, mode, w));
        let differs = false;
        for (const mask of allMasks(4)) {
          const perWorld = seeds.map((ws) => def.metric(plainReplay(def, c, ws, mask), c.inputs));
          expect(game.value(mask)).toBeCloseTo(perWorld.reduce((a, b) => a + b, 0) / worlds, 12);
          // The case's own world is not one of them (it would make prior mode a recorded replay).
          if (def.metric(plainReplay(def, c, caseSeed, mask), c.inputs) !== game.value(mask)) differs = true;
        }
        expect(differs).toBe(true);
      }
    }
  });

  it('posterior mode: v(empty) is exactly 0 when every draw of the failure is observed', () => {
    const def = validatePipeline({
      name: 'two-choices',
      steps: [
        { name: 'router', inputs: ['q'], cost: 1, run: (_, n) => n.categorical({ search: 0.5, answer: 0.2, refuse: -1 }, 'route'), fixes: [{ name: 'better router', cost: 1, run: (_, n) => n.categorical({ search: 2, answer: 0.2, refuse: -1 }, 'route') }] },
        { name: 'tool', inputs: ['router'], cost: 1, run: ({ router }, n) => (router === 'search' ? n.categorical({ good: 0.1, bad: 0.4 }, 'hit') : 'none'), fixes: [{ name: 'better tool', cost: 1, run: ({ router }, n) => (router === 'search' ? n.categorical({ good: 2, bad: 0.4 }, 'hit') : 'none') }] },
      ],
      metric: (out) => (out.tool === 'good' ? 1 : 0),
    });
    const observations: CaseDef['observed'][] = [{ router: { route: 'search' }, tool: { hit: 'bad' } }, { router: { route: 'answer' } }, { router: { route: 'refuse' } }];
    for (const observed of observations) {
      const r = analyzeCase(def, { id: 'obs', inputs: { q: 1 }, observed, score: 0 }, { ...DEFAULT_SETTINGS, mode: 'posterior', worlds: 16, method: 'exact' });
      expect(r.error).toBeUndefined();
      expect(r.vEmpty).toBe(0);
      expect(r.vAll).toBeGreaterThan(0);
    }
  });
});

describe('the score cache bound', () => {
  it('empties the score cache past its bound without changing any value or step cost, only running the metric again', () => {
    let metricCalls = 0;
    const base = stochasticPipeline();
    const counted = (): ValidPipeline =>
      validatePipeline({
        ...base,
        metric: (out, inputs) => {
          metricCalls++;
          return base.metric(out, inputs);
        },
      });
    const c: CaseDef = { id: 'c', inputs: { q: 'why' } };
    const settings = { mode: 'prior', worlds: 4 } as AnalysisSettings;
    const play = () => {
      metricCalls = 0;
      const game = new BlameGame(counted(), c, settings);
      const values = Array.from({ length: 16 }, (_, m) => game.value(m));
      return { values, cost: game.cost(), calls: metricCalls };
    };
    const unbounded = play();
    const saved = Replayer.maxScoreNodes;
    Replayer.maxScoreNodes = 2;
    try {
      const bounded = play();
      expect(bounded.values).toEqual(unbounded.values);
      expect(bounded.cost).toBe(unbounded.cost);
      expect(bounded.calls).toBeGreaterThan(unbounded.calls);
    } finally {
      Replayer.maxScoreNodes = saved;
    }
  });

  it('forgets the score nodes each world remembers by mask prefix when the cache is emptied', () => {
    // With a bound of 0 the cache is emptied before every score: the metric runs for every replay.
    // A world that went on walking from nodes of the dropped cache would find scores there instead.
    let metricCalls = 0;
    const base = stochasticPipeline();
    const def = validatePipeline({ ...base, metric: (out, inputs) => (metricCalls++, base.metric(out, inputs)) });
    const saved = Replayer.maxScoreNodes;
    Replayer.maxScoreNodes = 0;
    try {
      const game = new BlameGame(def, { id: 'c', inputs: { q: 'why' } }, { mode: 'prior', worlds: 4 } as AnalysisSettings);
      for (let m = 0; m < 16; m++) game.value(m);
      expect(metricCalls).toBe(16 * 4);
    } finally {
      Replayer.maxScoreNodes = saved;
    }
  });
});
