import { analyzeCase, BatchStopper, DEFAULT_SETTINGS, validatePipeline } from '../src/engine/index.ts';
import { BlameGame } from '../src/engine/blame-game.ts';
import { seededRng } from '../src/engine/rng.ts';
import { hashWithSeed } from '../src/engine/hash.ts';
import { Endpoints, marginalsAlong, shuffle } from '../src/engine/shapley/sampling.ts';
import { PairedBettingTest } from '../src/engine/stats/paired-betting-test.ts';
import { pairedTopSeparated } from '../src/engine/shapley/paired-stop.ts';
import { loadDemo } from './lib/demos.ts';
import { eightStepStream } from './workloads/demos.ts';

const demo = loadDemo('eight-step-agent');
const def = validatePipeline(demo.sandboxed());
const EXACT = { ...DEFAULT_SETTINGS, method: 'exact' as const, mode: 'recorded' as const };
const delta = 0.05;
const seedBase = Number(process.argv[3] ?? 0);
const stream = eightStepStream(demo.cases, 3000).map((c, k) => ({ ...c, seed: (c.seed as number) + seedBase * 7919 }));
const n = def.steps.length;
const names = def.steps.map((s) => s.name);

function baseline() {
  const stopper = new BatchStopper({ delta, bound: 'anytime' });
  let cost = 0, failures = 0;
  const sums = new Float64Array(n);
  for (const c of stream) {
    const r = analyzeCase(def, c, EXACT);
    cost += r.cost;
    if (r.failed && r.shapley) { failures++; names.forEach((p, i) => (sums[i] += r.shapley![p])); }
    if (stopper.push(r)) break;
  }
  const top = names[sums.indexOf(Math.max(...sums))];
  return { cost, failures, top };
}

function sampled(perCase: number, antithetic: boolean) {
  const alpha = delta / ((n * (n - 1)) / 2);
  const pairs: { i: number; j: number; test: PairedBettingTest }[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push({ i, j, test: new PairedBettingTest(alpha) });
  const sums = new Float64Array(n);
  let count = 0, cost = 0, failures = 0;
  const out = new Float64Array(n);
  const x = new Float64Array(n);
  for (const c of stream) {
    const game = new BlameGame(def, c, EXACT);
    const failed = game.factualRun.score < (def.threshold ?? 1);
    if (failed) {
      failures++;
      const rng = seededRng(hashWithSeed(`bandit\u0000${c.id}`, 1));
      const ends = new Endpoints();
      x.fill(0);
      let draws = 0;
      for (let k = 0; k < perCase; k++) {
        const order = Array.from({ length: n }, (_, i) => i);
        shuffle(order, rng);
        marginalsAlong(game, order, ends, out, false);
        for (let i = 0; i < n; i++) x[i] += out[i];
        draws++;
        if (antithetic) { order.reverse(); marginalsAlong(game, order, ends, out, false); for (let i = 0; i < n; i++) x[i] += out[i]; draws++; }
      }
      for (let i = 0; i < n; i++) { x[i] /= draws; sums[i] += x[i]; }
      count++;
      const reach = 2;
      for (const p of pairs) if (p.test.sign === 0) p.test.push(Math.min(1, Math.max(0, (x[p.i] - x[p.j] + reach) / (2 * reach))));
    }
    cost += game.cost();
    if (count > 0 && pairedTopSeparated(Array.from(sums), pairs)) break;
  }
  return { cost, failures, top: names[sums.indexOf(Math.max(...sums))] };
}
console.log('baseline', baseline());
for (const [k, a] of [[1, false], [1, true], [2, true], [4, false]] as const) console.log(`perm ${k} antithetic ${a}`, sampled(k, a));
{
  let read = 0, passCost = 0, failCost = 0, failures = 0;
  const stopper = new BatchStopper({ delta, bound: 'anytime' });
  for (const c of stream) {
    const r = analyzeCase(def, c, EXACT); read++;
    if (r.failed) { failCost += r.cost; failures++; } else passCost += r.cost;
    if (stopper.push(r)) break;
  }
  console.log({ read, failures, passCost, failCost });
}
