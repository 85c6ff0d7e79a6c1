import type { AnalysisSettings, CaseDef, Game, PipelineDef } from './types.ts';
import { ReplayError, StepSuspended } from './errors.ts';
import { chosenFix } from './fix-choice.ts';
import { WorldNoise } from './noise.ts';
import { Replayer, type ReplayHooks, type WorldRun } from './replay.ts';
import { caseWorldSeed, ensembleWorldSeed } from './world.ts';
import { type Coalition, compareCoalitions, emptyCoalition, fullCoalition, isEmptyCoalition } from './coalition.ts';

export const DEFAULT_RANGE: readonly [number, number] = [0, 1];

/** Model requests one round of a case may collect before it ends (bounds speculative Monte Carlo requests). */
export const MAX_PENDING_PER_ROUND = 256;

/** The worlds a case is replayed in: its own (recorded) or an ensemble derived from it. */
export function worldsFor(c: CaseDef, mode: AnalysisSettings['mode'], count: number): WorldNoise[] {
  const seed = caseWorldSeed(c.id, c.seed);
  if (mode === 'recorded') return [new WorldNoise(seed)];
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`worlds must be a positive integer, got ${count}`);
  return Array.from({ length: count }, (_, w) => new WorldNoise(ensembleWorldSeed(seed, mode, w)));
}

/** Index of the chosen fix of each step (settings.fixChoice by name, default the first). */
export function fixIndices(def: PipelineDef, fixChoice: AnalysisSettings['fixChoice']): number[] {
  return def.steps.map((s) => {
    const wanted = chosenFix(fixChoice, s.name);
    if (wanted === undefined) return 0;
    const k = s.fixes.findIndex((f) => f.name === wanted);
    if (k < 0) throw new ReplayError(`step "${s.name}" has no fix named "${wanted}" (fixes: ${s.fixes.map((f) => f.name).join(', ')})`, s.name);
    return k;
  });
}

/**
 * v(S) for one case: the metric, averaged over the case's worlds, when the steps in S run
 * their fix and all others their as-run version (docs/method.md). Memoised by coalition; the
 * step cache underneath makes repeated sub-runs free.
 */
export class BlameGame implements Game {
  readonly players: readonly string[];
  readonly range: readonly [number, number];
  readonly replayer: Replayer;
  private readonly memo = new Map<Coalition, number>();
  /** Every step fixed. */
  readonly fullMask: Coalition;
  /** World 0's runs of the empty and full coalitions, kept for the drill-down and last-touch. */
  factualRun!: WorldRun;
  fullRun: WorldRun | null = null;
  private readonly caseId: string;
  private readonly hooks: ReplayHooks;
  /** Worlds whose factual run is waiting for model responses (model steps): nothing else runs there yet. */
  private readonly factualPending: boolean[];

  /**
   * With `oneAtATime` (an analysis under a budget), a coalition still waiting for model responses
   * ends the round instead of standing in with a value: a stand-in would let the estimator go on
   * asking for coalitions the budget, once their cost is known, would not reach, and their
   * requests would be sent all the same.
   */
  constructor(def: PipelineDef, c: CaseDef, settings: Pick<AnalysisSettings, 'mode' | 'worlds' | 'fixChoice'>, hooks: ReplayHooks = {}, private readonly oneAtATime = false) {
    this.players = def.steps.map((s) => s.name);
    this.fullMask = fullCoalition(this.players.length);
    this.caseId = c.id;
    this.range = def.range ?? DEFAULT_RANGE;
    const worlds = worldsFor(c, settings.mode, settings.worlds);
    this.replayer = new Replayer(def, c, worlds, fixIndices(def, settings.fixChoice), hooks, settings.mode === 'posterior' ? (c.observed ?? {}) : undefined);
    this.hooks = hooks;
    this.factualPending = worlds.map(() => false);
    // The factual run of every world comes first: posterior worlds abduct their noise in it.
    this.value(emptyCoalition(this.players.length));
    // Without every factual run the case cannot even be judged: this round ends here.
    if (this.factualPending.some(Boolean)) throw new StepSuspended(this.players[0]);
  }

  get evaluations(): number {
    return this.memo.size;
  }

  cost(): number {
    return this.replayer.spent;
  }

  /** Whether v(mask) is evaluated already (asking for it again costs nothing). */
  isKnown(mask: Coalition): boolean {
    return this.memo.has(mask);
  }

  value(mask: Coalition): number {
    const known = this.memo.get(mask);
    if (known !== undefined) return known;
    const worlds = this.replayer.worlds.length;
    let sum = 0;
    let waiting = false;
    for (let w = 0; w < worlds; w++) {
      const run = this.hooks.model ? this.runCollecting(w, mask) : this.replayer.runWorld(w, mask);
      if (run === null) {
        waiting = true;
        continue;
      }
      const [lo, hi] = this.range;
      if (run.score < lo || run.score > hi) {
        throw new ReplayError(`case "${this.caseId}": the metric returned ${run.score}, outside the declared range [${lo}, ${hi}] (set "range" in the definition)`, null);
      }
      if (w === 0 && isEmptyCoalition(mask)) this.factualRun = run;
      if (w === 0 && mask === this.fullMask) this.fullRun = run;
      sum += run.score;
    }
    if (waiting) return this.placeholder(mask);
    const v = sum / worlds;
    this.memo.set(mask, v);
    return v;
  }

  /**
   * runWorld for a round of a model-step analysis: null when a step suspended (its requests are
   * now pending). A world whose factual run is incomplete runs nothing else: a posterior world's
   * Gumbels are abducted in its factual run, and a replay before that would cache wrong outputs.
   */
  private runCollecting(w: number, mask: Coalition): WorldRun | null {
    if (!isEmptyCoalition(mask) && this.factualPending[w]) return null;
    try {
      return this.replayer.runWorld(w, mask);
    } catch (e) {
      if (!(e instanceof StepSuspended)) throw e;
      if (isEmptyCoalition(mask)) this.factualPending[w] = true;
      return null;
    }
  }

  /**
   * The value of a coalition still waiting for model responses: a stand-in (never memoised) that
   * lets the estimator go on, so one round collects the requests of many coalitions. The round's
   * result is discarded while anything is pending; past MAX_PENDING_PER_ROUND the round ends.
   */
  private placeholder(mask: Coalition): number {
    if (this.oneAtATime || isEmptyCoalition(mask) || (this.hooks.model?.pending.size ?? 0) >= MAX_PENDING_PER_ROUND) throw new StepSuspended(this.players[0]);
    return this.range[0];
  }


  /** Evaluated coalitions so far, by mask. */
  evaluated(): [Coalition, number][] {
    return [...this.memo.entries()].sort((a, b) => compareCoalitions(a[0], b[0]));
  }
}
