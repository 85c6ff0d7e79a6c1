/**
 * Common random numbers vs independent sampling (the reference, example b): on the first failing
 * cases of the stochastic RAG demo, each estimator is computed `replicates` times with fresh
 * worlds, and the variance across replicates (averaged over cases and steps) is compared.
 *
 * - exact-avg: exact Shapley of v(S) averaged over `worlds` worlds. CRN: the same worlds for
 *   every coalition (BlameGame, shared step cache). Independent: fresh worlds per coalition.
 * - fix-alone: v({i}) - v(empty), a by-product of exact-avg.
 * - mc-perm: `permutations` random orders. CRN: one fresh world per permutation (the world a
 *   BlameGame of one world would use), shared by its coalitions and their step cache.
 *   Independent: a fresh world for every coalition run.
 *   With 16 permutations of 4 steps this is 64 coalition runs, as many as exact-avg's 16 x 4.
 */
import { Worker } from 'node:worker_threads';
import { BlameGame, exactShapley, seededRng } from '../../src/engine/index.ts';
import { hashWithSeed } from '../../src/engine/hash.ts';
import { caseWorldSeed, ensembleWorldSeed } from '../../src/engine/world.ts';
import type { CaseDef, Game, PipelineDef } from '../../src/engine/types.ts';
import { IndependentGame, PerWorldGames } from '../lib/independent-game.ts';
import type { LoadedDemo } from '../lib/demos.ts';
import { timeRuns } from '../lib/measure.ts';
import { REFERENCE } from '../lib/reference.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

type Estimator = 'fix-alone' | 'exact-avg' | 'mc-perm';
export type Sampling = 'crn' | 'indep';
const ESTIMATORS: Estimator[] = ['fix-alone', 'exact-avg', 'mc-perm'];

function seedOf(c: CaseDef, ...parts: (string | number)[]): number {
  return hashWithSeed(`crn-study\u0000${parts.join('\u0000')}`, caseWorldSeed(c.id, c.seed));
}

/** Mean marginal per player over `permutations` random orders, each on the game `gameFor(p)` gives. */
function permutationEstimate(n: number, permutations: number, rngSeed: number, gameFor: (p: number) => Game): number[] {
  const rng = seededRng(rngSeed);
  const order = Array.from({ length: n }, (_, i) => i);
  const sums = new Array<number>(n).fill(0);
  for (let p = 0; p < permutations; p++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const game = gameFor(p);
    let mask = 0;
    let prev = game.value(0);
    for (const player of order) {
      mask += 2 ** player;
      const cur = game.value(mask);
      sums[player] += cur - prev;
      prev = cur;
    }
  }
  return sums.map((s) => s / permutations);
}

interface Estimates {
  /** values[estimator][caseIndex][replicate] = per-step estimate */
  values: Record<Estimator, number[][][]>;
  /** cost[estimator] summed over cases and replicates (fix-alone has none of its own). */
  cost: Record<Estimator, number>;
}

export function estimate(def: PipelineDef, cases: CaseDef[], mode: 'posterior' | 'prior', sampling: Sampling, sizes: SuiteSizes): Estimates {
  const n = def.steps.length;
  const values: Estimates['values'] = { 'fix-alone': [], 'exact-avg': [], 'mc-perm': [] };
  const cost: Estimates['cost'] = { 'fix-alone': 0, 'exact-avg': 0, 'mc-perm': 0 };
  cases.forEach((c, ci) => {
    for (const e of ESTIMATORS) values[e][ci] = [];
    for (let r = 0; r < sizes.crnReplicates; r++) {
      const avg: Game =
        sampling === 'crn'
          ? new BlameGame(def, { ...c, seed: seedOf(c, mode, 'exact', r) }, { mode, worlds: sizes.crnWorlds })
          : new IndependentGame(def, c, mode, sizes.crnWorlds, seedOf(c, mode, 'exact-indep', r), true, sizes.crnWorlds * 2 ** n);
      values['exact-avg'][ci][r] = exactShapley(avg).values;
      values['fix-alone'][ci][r] = Array.from({ length: n }, (_, i) => avg.value(2 ** i) - avg.value(0));
      cost['exact-avg'] += avg.cost();

      const P = sizes.crnPermutations;
      const perm =
        sampling === 'indep'
          ? new IndependentGame(def, c, mode, 1, seedOf(c, mode, 'perm-indep', r), false, P * (n + 1))
          : new PerWorldGames(def, c, mode, Array.from({ length: P }, (_, p) => ensembleWorldSeed(seedOf(c, mode, 'perm', r, p), mode, 0)));
      const gameFor = (p: number): Game => (perm instanceof PerWorldGames ? perm.world(p) : perm);
      values['mc-perm'][ci][r] = permutationEstimate(n, P, seedOf(c, mode, 'order', r), gameFor);
      cost['mc-perm'] += perm.cost();
    }
  });
  return { values, cost };
}

/** Sample variance across replicates, averaged over cases and steps. */
function meanVariance(perCase: number[][][]): number {
  let total = 0;
  let count = 0;
  for (const reps of perCase) {
    const n = reps[0].length;
    for (let i = 0; i < n; i++) {
      const xs = reps.map((v) => v[i]);
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      total += xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
      count++;
    }
  }
  return total / count;
}

export function failingCases(demo: LoadedDemo, sizes: SuiteSizes): CaseDef[] {
  return demo.cases.filter((c) => c.score !== undefined && c.score < 1).slice(0, sizes.crnCases);
}

/** One block of the study: what a worker thread computes (cases `from` to `to` of the failing ones). */
export interface BlockRequest {
  mode: 'posterior' | 'prior';
  sampling: Sampling;
  sizes: SuiteSizes;
  from?: number;
  to?: number;
}

export function estimateBlock(demo: LoadedDemo, request: BlockRequest): Estimates {
  const cases = failingCases(demo, request.sizes).slice(request.from ?? 0, request.to);
  return estimate(demo.sandboxed(), cases, request.mode, request.sampling, request.sizes);
}

const BLOCKS: Omit<BlockRequest, 'sizes'>[] = [
  // Costliest first, so two workers finish close together.
  { mode: 'posterior', sampling: 'indep' },
  { mode: 'prior', sampling: 'indep' },
  { mode: 'posterior', sampling: 'crn' },
  { mode: 'prior', sampling: 'crn' },
];

/**
 * Each block is cut into this many slices of cases, handed to whichever worker is free: with
 * whole blocks, the costliest one (posterior, independent) alone kept one core busy while the
 * other ran out of work. Every case's worlds are seeded by the case, so slicing changes nothing.
 * Eight slices (about 60 ms of CPU each since round 4) leave the worker that finishes first idle
 * for half a slice on average, not for half of a 125 ms one.
 */
const SLICES_PER_BLOCK = 8;

/** Concatenate the slices of a block, in case order. */
function mergeSlices(slices: Estimates[]): Estimates {
  const values: Estimates['values'] = { 'fix-alone': [], 'exact-avg': [], 'mc-perm': [] };
  const cost: Estimates['cost'] = { 'fix-alone': 0, 'exact-avg': 0, 'mc-perm': 0 };
  for (const slice of slices) {
    for (const e of ESTIMATORS) {
      values[e].push(...slice.values[e]);
      cost[e] += slice.cost[e];
    }
  }
  return { values, cost };
}

/** The four blocks on `workers` worker threads (each compiles the definition in its own sandbox), or in this thread. */
async function allBlocks(demo: LoadedDemo, sizes: SuiteSizes, workers: Worker[]): Promise<Estimates[]> {
  if (workers.length === 0) return BLOCKS.map((b) => estimateBlock(demo, { ...b, sizes }));
  const caseCount = failingCases(demo, sizes).length;
  const bounds = Array.from({ length: SLICES_PER_BLOCK + 1 }, (_, k) => Math.round((k * caseCount) / SLICES_PER_BLOCK));
  const requests: BlockRequest[] = BLOCKS.flatMap((b) =>
    Array.from({ length: SLICES_PER_BLOCK }, (_, k) => ({ ...b, sizes, from: bounds[k], to: bounds[k + 1] })),
  );
  const out: Estimates[] = new Array(requests.length);
  let next = 0;
  await Promise.all(
    workers.map(async (worker) => {
      while (next < requests.length) {
        const k = next++;
        out[k] = await new Promise<Estimates>((resolve, reject) => {
          worker.once('message', (reply: { ok: true; estimates: Estimates } | { ok: false; message: string }) =>
            reply.ok ? resolve(reply.estimates) : reject(new Error(`CRN worker: ${reply.message}`)),
          );
          worker.postMessage(requests[k]);
        });
      }
    }),
  );
  return BLOCKS.map((_, b) => mergeSlices(out.slice(b * SLICES_PER_BLOCK, (b + 1) * SLICES_PER_BLOCK)));
}

/**
 * Workers that have loaded the study (through tsx, about a second of CPU each) and compiled the
 * definition: like the pool's workers (poolRunner), they are started before the timing. Started
 * inside it, their loading made the untimed warm-up run pass LONG_RUN_MS, so it was counted as a
 * timed run (the median of three then read the slowest warm run: 0.99 s against 0.80 s).
 */
function startWorkers(count: number): Promise<Worker[]> {
  const entry = new URL('../lib/ts-worker.mjs', import.meta.url);
  const module = new URL('./crn-worker.ts', import.meta.url).href;
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Worker>((resolve, reject) => {
          const worker = new Worker(entry, { workerData: { module } });
          worker.on('error', (e) => process.stderr.write(`CRN worker error: ${e.message}\n`));
          worker.once('error', reject);
          worker.once('message', (message: { ready?: boolean }) => (message.ready ? resolve(worker) : reject(new Error('CRN worker: expected a ready message first'))));
        }),
    ),
  );
}

export async function crnVarianceStudy(demo: LoadedDemo, sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const failing = failingCases(demo, sizes);
  const workers = await startWorkers(sizes.workers);
  try {
    // Workers compile the definition and warm up on the first run; with warm-up runs that is not timed.
    const { timing, result } = await timeRuns(sizes.runs, sizes.warmup, async () => {
      const blocks = await allBlocks(demo, sizes, workers);
      const table: Record<string, unknown>[] = [];
      for (const mode of ['posterior', 'prior'] as const) {
        const crn = blocks[BLOCKS.findIndex((b) => b.mode === mode && b.sampling === 'crn')];
        const indep = blocks[BLOCKS.findIndex((b) => b.mode === mode && b.sampling === 'indep')];
        for (const e of ESTIMATORS) {
          const vc = meanVariance(crn.values[e]);
          const vi = meanVariance(indep.values[e]);
          const perRep = sizes.crnReplicates;
          table.push({
            mode,
            estimator: e,
            varCrn: vc,
            varIndep: vi,
            indepOverCrn: vi / vc,
            referenceIndepOverCrn: REFERENCE.crnVarianceRatio[mode][e],
            ...(e === 'fix-alone'
              ? {}
              : {
                  costCrnPerReplicate: crn.cost[e] / perRep,
                  costIndepPerReplicate: indep.cost[e] / perRep,
                  varTimesCostGain: (vi * indep.cost[e]) / (vc * crn.cost[e]),
                }),
          });
        }
      }
      return table;
    });
    return [
      {
        group: 'demo:rag',
        name: `rag: CRN vs independent (${failing.length} failing, ${sizes.crnWorlds} worlds, ${sizes.crnReplicates} replicates)`,
        ...timing,
        detail: { table: result, workers: workers.length },
      },
    ];
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
