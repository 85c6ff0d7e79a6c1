import { describe, expect, it } from 'vitest';
import { testResult, type LooseResult } from './testing/results.ts';
import { analyzeTableGame } from './table-game.ts';
import { isAnalysedFailure } from './case-result.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { aggregateBatch, anytimeIndex, BANDIT_BET_FRACTION, BatchStopper, NORMAL_STOP_MIN_CASES } from './batch.ts';
import { PLANTED_MEANS, PLANTED_STEPS, plantedStream, runPlanted } from './testing/planted-batch.ts';
import { seededRng } from './rng.ts';
import type { BatchBound, CaseResult } from './types.ts';
import { mean, variance } from './testing/statistics.ts';
import { BettingConfidenceSequence } from './stats/betting-cs.ts';

const players = ['a', 'b', 'c'];
const Z975 = 1.959963984540054;

function failure(id: string, shapley: number[], extra: Partial<LooseResult> = {}): CaseResult {
  const byName = (xs: number[]) => Object.fromEntries(players.map((p, i) => [p, xs[i]]));
  return testResult({
    id,
    players,
    method: 'exact',
    failed: true,
    vEmpty: 0,
    vAll: shapley.reduce((a, b) => a + b, 0),
    shapley: byName(shapley),
    fixAlone: byName([0, 0, 0]),
    leaveOneOut: byName([0, 0, 0]),
    lastTouch: null,
    cost: 1,
    evaluations: 8,
    permutations: 0,
    stopReason: 'exact',
    fixable: true,
    ...extra,
  });
}

const handBuilt: CaseResult[] = [
  failure('r1', [0.5, 0.3, 0.2], { vAll: 1, fixAlone: { a: 1, b: 0, c: 0 }, lastTouch: 'c', cost: 10 }),
  failure('r2', [0.6, 0.1, 0.1], { vAll: 0.8, fixAlone: { a: 1, b: 1, c: 0 }, lastTouch: 'c', cost: 5 }),
  failure('r3', [0, 0, 0], { vAll: 0, lastTouch: 'b', fixable: false, cost: 7 }),
  { id: 'r4', players, method: 'exact', failed: true, vEmpty: NaN, vAll: NaN, cost: 0, evaluations: 0, permutations: 0, error: 'case "r4": step "a" threw: boom' },
  { id: 'r5', players, method: 'exact', failed: false, vEmpty: 1, vAll: 1, cost: 3, evaluations: 2, permutations: 0 },
];

describe('aggregateBatch', () => {
  it('counts, rates, means, shares and last-touch counts on hand-built results', () => {
    const b = aggregateBatch(handBuilt, { delta: 0.05, bound: 'normal' });
    expect(b.failures).toBe(3);
    expect(b.analyzed).toBe(3);
    expect(b.unfixable).toBe(1);
    expect(b.cost).toBe(25);
    const [a, bb, c] = b.steps;
    expect(b.steps.map((s) => s.step)).toEqual(players);
    expect(a.fixAloneRate).toBeCloseTo(2 / 3, 12);
    expect(bb.fixAloneRate).toBeCloseTo(1 / 3, 12);
    expect(c.fixAloneRate).toBe(0);
    expect(a.meanShapley).toBeCloseTo(1.1 / 3, 12);
    expect(bb.meanShapley).toBeCloseTo(0.4 / 3, 12);
    expect(c.meanShapley).toBeCloseTo(0.3 / 3, 12);
    // Share = sum of the step's Shapley / sum of (v(all) - v(empty)) = x / 1.8.
    expect(a.share).toBeCloseTo(1.1 / 1.8, 12);
    expect(bb.share).toBeCloseTo(0.4 / 1.8, 12);
    expect(c.share).toBeCloseTo(0.3 / 1.8, 12);
    expect([a.lastTouch, bb.lastTouch, c.lastTouch]).toEqual([0, 1, 2]);
  });

  it('normal CI = mean +- z sd / sqrt(m)', () => {
    const b = aggregateBatch(handBuilt, { delta: 0.05, bound: 'normal' });
    const columns = [[0.5, 0.6, 0], [0.3, 0.1, 0], [0.2, 0.1, 0]];
    columns.forEach((xs, i) => {
      const r = (Z975 * Math.sqrt(variance(xs))) / Math.sqrt(xs.length);
      expect(b.steps[i].ci[0]).toBeCloseTo(mean(xs) - r, 6);
      expect(b.steps[i].ci[1]).toBeCloseTo(mean(xs) + r, 6);
    });
    // 90 %: z = 1.644854.
    const b90 = aggregateBatch(handBuilt, { delta: 0.1, bound: 'normal' });
    const r90 = (1.6448536269514722 * Math.sqrt(variance(columns[0]))) / Math.sqrt(3);
    expect(b90.steps[0].ci[1]).toBeCloseTo(mean(columns[0]) + r90, 6);
  });

  /** m failures with Shapley values drawn from a seeded generator. */
  function synthetic(m: number, seed: number): CaseResult[] {
    const rng = seededRng(seed);
    return Array.from({ length: m }, (_, k) => failure(`s${k}`, [0.5 + 0.3 * rng(), 0.2 * rng() - 0.05, 0.1 * rng()]));
  }

  /** Empirical Bernstein radius written out independently: sqrt(2 V ln(4/d)/m) + 7 R ln(4/d) / (3 (m-1)), R = 2. */
  const ebRadius = (xs: number[], d: number) => Math.sqrt((2 * variance(xs) * Math.log(4 / d)) / xs.length) + (7 * 2 * Math.log(4 / d)) / (3 * (xs.length - 1));

  it('bernstein CI: radius at delta / n per step, clipped to [-1, 1]', () => {
    const results = synthetic(400, 3);
    const b = aggregateBatch(results, { delta: 0.05, bound: 'bernstein' });
    players.forEach((p, i) => {
      const xs = results.map((r) => r.shapley![p]);
      const r = ebRadius(xs, 0.05 / 3);
      expect(b.steps[i].ci[0]).toBeCloseTo(Math.max(mean(xs) - r, -1), 12);
      expect(b.steps[i].ci[1]).toBeCloseTo(Math.min(mean(xs) + r, 1), 12);
    });
    // Three cases: the range term dominates and the interval is the clip [-1, 1].
    expect(aggregateBatch(handBuilt, { delta: 0.05, bound: 'bernstein' }).steps[0].ci).toEqual([-1, 1]);
  });

  it('anytime CI: a betting confidence sequence per step at delta / n over the cases in order', () => {
    // The checkpoint index that the bernstein stop rule uses: the first t_k >= m gives k.
    const checkpoints = [2];
    while (checkpoints[checkpoints.length - 1] < 10_000) {
      const t = checkpoints[checkpoints.length - 1];
      checkpoints.push(Math.max(t + 1, Math.ceil(1.25 * t)));
    }
    const k = (m: number) => checkpoints.findIndex((t) => t >= m) + 1;
    for (const m of [2, 6, 7, 100, 400]) expect(anytimeIndex(m)).toBe(k(m));
    const results = synthetic(400, 4);
    const b = aggregateBatch(results, { delta: 0.05, bound: 'anytime' });
    const bernstein = aggregateBatch(results, { delta: 0.05, bound: 'bernstein' });
    players.forEach((p, i) => {
      const cs = new BettingConfidenceSequence(0.05 / 3);
      for (const r of results) cs.push((r.shapley![p] + 1) / 2);
      expect(b.steps[i].ci[0]).toBeCloseTo(2 * cs.lower - 1, 12);
      expect(b.steps[i].ci[1]).toBeCloseTo(2 * cs.upper - 1, 12);
      expect(b.steps[i].ci[0]).toBeLessThanOrEqual(b.steps[i].meanShapley);
      expect(b.steps[i].ci[1]).toBeGreaterThanOrEqual(b.steps[i].meanShapley);
      // Valid at every case count, and still narrower than Bernstein at this one count.
      expect(b.steps[i].ci[1] - b.steps[i].ci[0]).toBeLessThan(bernstein.steps[i].ci[1] - bernstein.steps[i].ci[0]);
    });
  });

  it('edge cases: one case, no failures, a custom range, zero repair mass', () => {
    const one = aggregateBatch([failure('x', [0.7, 0.2, 0.1])], { delta: 0.05, bound: 'normal' });
    expect(one.steps[0].ci).toEqual([0.7, 0.7]);
    const mcOne = aggregateBatch([failure('x', [0.7, 0.2, 0.1], { ci: { a: [0.5, 0.9], b: [0, 0.4], c: [-0.1, 0.3] } })], { delta: 0.05, bound: 'bernstein' });
    expect(mcOne.steps[0].ci).toEqual([0.5, 0.9]);

    const none = aggregateBatch([handBuilt[4]], { delta: 0.05, bound: 'anytime' });
    expect(none.failures).toBe(0);
    expect(none.analyzed).toBe(0);
    expect(none.steps.map((s) => [s.meanShapley, s.share, s.fixAloneRate, ...s.ci])).toEqual(players.map(() => [0, 0, 0, 0, 0]));
    expect(aggregateBatch([], { delta: 0.05, bound: 'normal' })).toEqual({ failures: 0, analyzed: 0, unfixable: 0, cost: 0, steps: [] });

    const unrepairable = aggregateBatch([handBuilt[2], handBuilt[2]], { delta: 0.05, bound: 'normal' });
    expect(unrepairable.steps.every((s) => s.share === 0)).toBe(true);
    expect(unrepairable.unfixable).toBe(2);

    // A metric on [0, 10]: Shapley values lie in [-10, 10], and the range term scales with it.
    const wide = synthetic(50, 8).map((r) => testResult({ ...r, shapley: Object.fromEntries(Object.entries(r.shapley!).map(([p, v]) => [p, 10 * v])) }));
    const bw = aggregateBatch(wide, { delta: 0.05, bound: 'bernstein', range: [0, 10] });
    const xs = wide.map((r) => r.shapley!.a);
    const rr = Math.sqrt((2 * variance(xs) * Math.log(4 / (0.05 / 3))) / 50) + (7 * 20 * Math.log(4 / (0.05 / 3))) / (3 * 49);
    expect(bw.steps[0].ci).toEqual([Math.max(mean(xs) - rr, -10), Math.min(mean(xs) + rr, 10)]);
  });
});

describe('BatchStopper', () => {
  function stream(kind: 'dominant' | 'tied' | 'noisy-tie', seed: number, count: number): CaseResult[] {
    const rng = seededRng(seed);
    return Array.from({ length: count }, (_, k) => {
      const u = rng();
      const values =
        kind === 'dominant' ? [0.7 + 0.2 * u, 0.1 * rng(), 0.1 * rng()] : kind === 'tied' ? [0.4 * u, 0.4 * u, 0.05 * rng()] : [0.4 * u, 0.4 * rng(), 0.05 * rng()];
      return failure(`c${k}`, values);
    });
  }

  /** Index (1-based) of the case at which the stopper first says stop, or null. */
  function stopAt(results: CaseResult[], bound: BatchBound): number | null {
    const stopper = new BatchStopper({ delta: 0.05, bound });
    for (let i = 0; i < results.length; i++) if (stopper.push(results[i])) return i + 1;
    return null;
  }

  it('stops on a stream with one clearly dominant step, at a checkpoint, once separated (normal, bernstein)', () => {
    const checkpoints = [2];
    while (checkpoints.length < 60) checkpoints.push(Math.max(checkpoints.at(-1)! + 1, Math.ceil(1.25 * checkpoints.at(-1)!)));
    for (const bound of ['normal', 'bernstein'] as BatchBound[]) {
      const results = stream('dominant', 1, 3000);
      const at = stopAt(results, bound);
      expect(at).not.toBeNull();
      expect(checkpoints).toContain(at);
      // Independently: at the stop the top step's lower end is above the others' upper ends.
      const k = checkpoints.indexOf(at!) + 1;
      const cols = players.map((p) => results.slice(0, at!).map((r) => r.shapley![p]));
      const radius = (xs: number[]) =>
        bound === 'normal' ? (Z975 * Math.sqrt(variance(xs))) / Math.sqrt(xs.length) : Math.sqrt((2 * variance(xs) * Math.log(4 / (0.05 / (3 * k * (k + 1))))) / xs.length) + (14 * Math.log(4 / (0.05 / (3 * k * (k + 1))))) / (3 * (xs.length - 1));
      const lowTop = mean(cols[0]) - radius(cols[0]);
      expect(lowTop).toBeGreaterThan(mean(cols[1]) + radius(cols[1]));
      expect(lowTop).toBeGreaterThan(mean(cols[2]) + radius(cols[2]));
    }
    // The paired anytime rule stops far sooner than disjoint anytime Bernstein intervals.
    expect(stopAt(stream('dominant', 1, 3000), 'anytime')!).toBeLessThan(stopAt(stream('dominant', 1, 3000), 'bernstein')! / 2);
  });

  it('anytime: decides on paired per-case differences, so a step that is always a bit above another separates though their spreads overlap', () => {
    // Both steps vary widely from case to case, but a beats b by 0.05 in every case.
    const rng = seededRng(6);
    const results = Array.from({ length: 2000 }, (_, k) => {
      const u = 0.8 * rng();
      return failure(`c${k}`, [u + 0.05, u, 0.02 * rng()]);
    });
    const at = stopAt(results, 'anytime');
    expect(at).not.toBeNull();
    // The difference is 0.05 on a scale of [-2, 2]: a bet of at most the capital's whole gains
    // about 1.2 % a case, and 2/alpha = 120 takes ln(120) / 0.0124, about 390 cases.
    expect(at!).toBeLessThan(450);
    expect(stopAt(results, 'bernstein')).toBeNull();
  });

  it('anytime: names the wrong top step in <= delta of streams when the top two are close', () => {
    let wrong = 0;
    let stopped = 0;
    const runs = 200;
    for (let seed = 1; seed <= runs; seed++) {
      const rng = seededRng(seed);
      const results = Array.from({ length: 600 }, (_, k) => failure(`c${k}`, [0.3 + 0.4 * rng(), 0.32 + 0.4 * rng(), 0.1 * rng()]));
      const stopper = new BatchStopper({ delta: 0.1, bound: 'anytime' });
      for (let i = 0; i < results.length; i++) {
        if (stopper.push(results[i])) {
          stopped++;
          const seen = results.slice(0, i + 1);
          if (mean(seen.map((r) => r.shapley!.a)) > mean(seen.map((r) => r.shapley!.b))) wrong++;
          break;
        }
      }
    }
    expect(stopped).toBeGreaterThan(0);
    expect(wrong / runs).toBeLessThanOrEqual(0.1);
  });

  it('anytime with eight steps and a tie at the top: the top-1 claim (tests at delta / (n - 1)) is made in <= delta of 200 planted streams', () => {
    // a and b tie at 0.40 (six others at 0.05, uniform noise of width 0.4 around each), so every
    // claim that one step is above all others is wrong. Only the pairs holding a true top step can
    // make such a claim, so spending delta / 7 on each of the 28 pair tests keeps the error at delta.
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const centres = [0.4, 0.4, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05];
    const byName = (xs: number[]) => Object.fromEntries(names.map((p, i) => [p, xs[i]]));
    const zeros = byName(names.map(() => 0));
    let claims = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const rng = seededRng(1000 + seed);
      const stopper = new BatchStopper({ delta: 0.1, bound: 'anytime' });
      for (let k = 0; k < 1000; k++) {
        const values = centres.map((c) => Math.max(0, c - 0.2 + 0.4 * rng()));
        const r = testResult({ id: `c${k}`, players: names, method: 'exact', failed: true, vEmpty: 0, vAll: values.reduce((x, y) => x + y, 0), shapley: byName(values), fixAlone: zeros, leaveOneOut: zeros, lastTouch: null, cost: 1, evaluations: 256, permutations: 0, stopReason: 'exact', fixable: true });
        if (stopper.push(r)) {
          claims++;
          break;
        }
      }
    }
    expect(claims / 200).toBeLessThanOrEqual(0.1);
  });

  it('lets the normal rule stop only from NORMAL_STOP_MIN_CASES failures on, even with zero variance', () => {
    const identical = Array.from({ length: 100 }, (_, k) => failure(`c${k}`, [0.9, 0.05, 0.05]));
    const at = stopAt(identical, 'normal');
    expect(at).not.toBeNull();
    expect(at!).toBeGreaterThanOrEqual(NORMAL_STOP_MIN_CASES);
    expect(stopAt(identical.slice(0, NORMAL_STOP_MIN_CASES - 1), 'normal')).toBeNull();
  });

  it('never stops on tied steps', () => {
    for (const bound of ['normal', 'bernstein', 'anytime'] as BatchBound[]) expect(stopAt(stream('tied', 2, 3000), bound)).toBeNull();
    for (const bound of ['bernstein', 'anytime'] as BatchBound[]) expect(stopAt(stream('noisy-tie', 3, 3000), bound)).toBeNull();
  });

  it('ignores results that are not analysed failures', () => {
    const stopper = new BatchStopper({ delta: 0.05, bound: 'normal' });
    expect(stopper.push(handBuilt[3])).toBe(false);
    expect(stopper.push(handBuilt[4])).toBe(false);
    // The first analysed failure is the first sample (no checkpoint yet).
    expect(stopper.push(failure('x', [1, 0, 0]))).toBe(false);
  });
});

describe('batch interval coverage (docs/method.md, "Intervals": every estimator covers at least 1 - delta)', () => {
  // Per-case Shapley values drawn i.i.d. from known distributions: a skewed 0/1-like step, a
  // mostly-zero step with rare large values, and a uniform one, with population means 0.3, 0.05, 0.2.
  const means = [0.3, 0.05, 0.2];
  function draw(rng: () => number): number[] {
    return [rng() < 0.3 ? 1 : 0, rng() < 0.05 ? 1 : 0, 0.4 * rng()];
  }

  function coverage(bound: BatchBound, m: number, reps: number): { simultaneous: number; perStep: number[] } {
    const rng = seededRng(20261129 + m);
    let all = 0;
    const each = [0, 0, 0];
    for (let r = 0; r < reps; r++) {
      const results = Array.from({ length: m }, (_, k) => failure(`c${k}`, draw(rng)));
      const batch = aggregateBatch(results, { delta: 0.1, bound });
      const covered = batch.steps.map((s, i) => s.ci[0] <= means[i] && means[i] <= s.ci[1]);
      covered.forEach((c, i) => (each[i] += c ? 1 : 0));
      if (covered.every(Boolean)) all++;
    }
    return { simultaneous: all / reps, perStep: each.map((x) => x / reps) };
  }

  it('bernstein and anytime intervals hold for all steps together with probability >= 1 - delta', () => {
    for (const bound of ['bernstein', 'anytime'] as BatchBound[]) {
      for (const m of [20, 200]) expect(coverage(bound, m, 300).simultaneous).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('the normal interval covers each well-behaved step close to its nominal 1 - delta once there are enough cases', () => {
    const { perStep } = coverage('normal', 200, 600);
    // Asymptotic: allow three binomial standard errors below 0.9 (sd = sqrt(0.9 * 0.1 / 600) ~ 0.012).
    // The rare-event step (mean 0.05, about 10 nonzero cases in 200) is where the normal
    // approximation undercovers; that is why it is called a heuristic and is not checked here.
    for (const i of [0, 2]) expect(perStep[i]).toBeGreaterThanOrEqual(0.9 - 3 * Math.sqrt(0.09 / 600));
  });

  it('would fail if the bernstein radius were an eighth of what it is (the coverage check has power)', () => {
    const rng = seededRng(7);
    let missed = 0;
    for (let r = 0; r < 200; r++) {
      const results = Array.from({ length: 200 }, (_, k) => failure(`c${k}`, draw(rng)));
      const s = aggregateBatch(results, { delta: 0.1, bound: 'bernstein' }).steps[0];
      const centre = s.meanShapley;
      const shrunk = (s.ci[1] - centre) / 8;
      if (!(centre - shrunk <= means[0] && means[0] <= centre + shrunk)) missed++;
    }
    expect(missed / 200).toBeGreaterThan(0.1);
  });
});

describe('fixAloneRate on a metric that is not 0/1', () => {
  // Metric on 0..10, threshold 7; players a, b; values by mask [v(none), v(a), v(b), v(a, b)].
  const tables: [string, number[]][] = [
    ['g1', [0, 8, 3, 10]], // a alone repairs, b does not
    ['g2', [2, 5, 9, 10]], // b alone repairs
    ['g3', [0, 7, 7, 10]], // each alone reaches the threshold exactly
  ];
  const results = tables.map(([id, values]) =>
    analyzeTableGame({ id, players: ['a', 'b'], values: Float64Array.from(values), range: [0, 10] }, { ...DEFAULT_SETTINGS, method: 'exact' }, 7),
  );

  it('is the share of analysed failures that fixing the step alone brings to the threshold, and keeps the mean gain apart', () => {
    const batch = aggregateBatch(results, { delta: 0.05, bound: 'normal', range: [0, 10], threshold: 7 });
    const [a, b] = batch.steps;
    expect(a.fixAloneRate).toBeCloseTo(2 / 3, 12);
    expect(b.fixAloneRate).toBeCloseTo(2 / 3, 12);
    expect(a.meanFixAlone).toBeCloseTo((8 + 3 + 7) / 3, 12);
    expect(b.meanFixAlone).toBeCloseTo((3 + 7 + 7) / 3, 12);
    for (const s of batch.steps) expect(s.fixAloneRate).toBeLessThanOrEqual(1);
  });

  it('judges results saved without resolvedAlone from v(empty) plus the fix-alone gain', () => {
    const saved = results.map((r) => (isAnalysedFailure(r) ? { ...r, resolvedAlone: undefined } : r));
    const batch = aggregateBatch(saved, { delta: 0.05, bound: 'normal', range: [0, 10], threshold: 7 });
    expect(batch.steps.map((s) => s.fixAloneRate)).toEqual(aggregateBatch(results, { delta: 0.05, bound: 'normal', threshold: 7 }).steps.map((s) => s.fixAloneRate));
  });
});

describe('the bandit stop (rule: bandit)', () => {
  it('decides on paired differences whatever the bound, betting up to BANDIT_BET_FRACTION: earlier than the plain anytime stop on the same stream', () => {
    for (const seed of [1, 2, 3]) {
      const top = runPlanted('top', 0.05, seed);
      const bandit = runPlanted('bandit', 0.05, seed);
      expect(top.stoppedAt).not.toBeNull();
      expect(bandit.stoppedAt).not.toBeNull();
      expect(bandit.stoppedAt!).toBeLessThan(top.stoppedAt!);
    }
    // The normal bound alone would wait for NORMAL_STOP_MIN_CASES; the bandit rule ignores the bound.
    const stream = plantedStream(4, 500);
    const stopper = new BatchStopper({ delta: 0.05, bound: 'normal', rule: 'bandit' });
    const plain = new BatchStopper({ delta: 0.05, bound: 'anytime', rule: 'bandit' });
    for (const r of stream) {
      const a = stopper.push(r);
      expect(a).toBe(plain.push(r));
      if (a) break;
    }
    expect(BANDIT_BET_FRACTION).toBeLessThan(1);
  });

  it('planted batch, 40 seeded repetitions: the right top step and every anytime batch interval covering its mean in >= 1 - delta of them', () => {
    const delta = 0.1;
    let right = 0;
    let covered = 0;
    const reps = 40;
    for (let seed = 1; seed <= reps; seed++) {
      const outcome = runPlanted('bandit', delta, 5000 + seed);
      expect(outcome.stoppedAt).not.toBeNull();
      if (outcome.top === PLANTED_STEPS[PLANTED_MEANS.indexOf(Math.max(...PLANTED_MEANS) as never)]) right++;
      if (outcome.covered) covered++;
    }
    expect(right / reps).toBeGreaterThanOrEqual(1 - delta);
    expect(covered / reps).toBeGreaterThanOrEqual(1 - delta);
  });

  it('with a tie at the top the claim is made in <= delta of 100 planted streams (bolder bets, still valid)', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const centres = [0.4, 0.4, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05];
    const byName = (xs: number[]) => Object.fromEntries(names.map((p, i) => [p, xs[i]]));
    let claims = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const rng = seededRng(7000 + seed);
      const stopper = new BatchStopper({ delta: 0.1, bound: 'anytime', rule: 'bandit' });
      for (let k = 0; k < 600; k++) {
        const values = centres.map((c) => Math.max(0, c - 0.2 + 0.4 * rng()));
        if (stopper.push(testResult({ id: `c${k}`, players: names, failed: true, shapley: byName(values), evaluations: 256 }))) {
          claims++;
          break;
        }
      }
    }
    expect(claims / 100).toBeLessThanOrEqual(0.1);
  });
});
