import type { AnalysisSettings, CaseDef, Game, PipelineDef } from './types.ts';
import { ReplayError } from './errors.ts';
import { WorldNoise } from './noise.ts';
import { Replayer, type ReplayHooks, type WorldRun } from './replay.ts';
import { caseWorldSeed, ensembleWorldSeed } from './world.ts';

export const DEFAULT_RANGE: readonly [number, number] = [0, 1];

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
    const wanted = fixChoice && Object.hasOwn(fixChoice, s.name) ? fixChoice[s.name] : undefined;
    if (wanted === undefined) return 0;
    const k = s.fixes.findIndex((f) => f.name === wanted);
    if (k < 0) throw new ReplayError(`step "${s.name}" has no fix named "${wanted}" (fixes: ${s.fixes.map((f) => f.name).join(', ')})`, s.name);
    return k;
  });
}

/**
 * v(S) for one case: the metric, averaged over the case's worlds, when the steps in S run
 * their fix and all others their as-run version (DESIGN 3). Memoised by coalition; the
 * step cache underneath makes repeated sub-runs free.
 */
export class BlameGame implements Game {
  readonly players: readonly string[];
  readonly range: readonly [number, number];
  readonly replayer: Replayer;
  private readonly memo = new Map<number, number>();
  /** World 0's runs of the empty and full coalitions, kept for the drill-down and last-touch. */
  factualRun!: WorldRun;
  fullRun: WorldRun | null = null;
  private readonly caseId: string;

  constructor(def: PipelineDef, c: CaseDef, settings: Pick<AnalysisSettings, 'mode' | 'worlds' | 'fixChoice'>, hooks: ReplayHooks = {}) {
    this.players = def.steps.map((s) => s.name);
    this.caseId = c.id;
    this.range = def.range ?? DEFAULT_RANGE;
    const worlds = worldsFor(c, settings.mode, settings.worlds);
    this.replayer = new Replayer(def, c, worlds, fixIndices(def, settings.fixChoice), hooks, settings.mode === 'posterior' ? (c.observed ?? {}) : undefined);
    // The factual run of every world comes first: posterior worlds abduct their noise in it.
    this.value(0);
  }

  get evaluations(): number {
    return this.memo.size;
  }

  cost(): number {
    return this.replayer.spent;
  }

  value(mask: number): number {
    const known = this.memo.get(mask);
    if (known !== undefined) return known;
    const worlds = this.replayer.worlds.length;
    let sum = 0;
    for (let w = 0; w < worlds; w++) {
      const run = this.replayer.runWorld(w, mask);
      const [lo, hi] = this.range;
      if (run.score < lo || run.score > hi) {
        throw new ReplayError(`case "${this.caseId}": the metric returned ${run.score}, outside the declared range [${lo}, ${hi}] (set "range" in the definition)`, null);
      }
      if (w === 0 && mask === 0) this.factualRun = run;
      if (w === 0 && mask === this.fullMask) this.fullRun = run;
      sum += run.score;
    }
    const v = sum / worlds;
    this.memo.set(mask, v);
    return v;
  }

  get fullMask(): number {
    return 2 ** this.players.length - 1;
  }

  /** Evaluated coalitions so far, by mask. */
  evaluated(): [number, number][] {
    return [...this.memo.entries()].sort((a, b) => a[0] - b[0]);
  }
}
