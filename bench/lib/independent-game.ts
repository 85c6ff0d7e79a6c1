/**
 * Games for the common-random-numbers study, built from the engine's Replayer and WorldNoise so
 * a world is replayed exactly as BlameGame would replay it. One Replayer holds all the worlds a
 * game will use (each world has its own step cache), which is far cheaper than one per world.
 */
import type { CaseDef, Game, Mode, PipelineDef } from '../../src/engine/types.ts';
import type { Coalition } from '../../src/engine/coalition.ts';
import { fixIndices } from '../../src/engine/blame-game.ts';
import { hashWithSeed } from '../../src/engine/hash.ts';
import { WorldNoise } from '../../src/engine/noise.ts';
import { Replayer } from '../../src/engine/replay.ts';

function replayerFor(def: PipelineDef, c: CaseDef, mode: Exclude<Mode, 'recorded'>, seeds: number[]): Replayer {
  return new Replayer(def, c, seeds.map((s) => new WorldNoise(s)), fixIndices(def, undefined), {}, mode === 'posterior' ? (c.observed ?? {}) : undefined);
}

/**
 * "Independent sampling": every evaluation of v(S) runs in its own fresh worlds, so no two
 * coalitions (and no two calls) share noise or step cache. Posterior worlds are abducted from
 * the case's observed choices, as in BlameGame, which costs one factual run per fresh world
 * (charged; the as-run prefix it leaves in that world's cache is reused by the coalition run).
 */
export class IndependentGame implements Game {
  readonly players: readonly string[];
  readonly range: readonly [number, number];
  private readonly replayer: Replayer;
  private readonly memo = new Map<number, number>();
  private next = 0;

  constructor(
    def: PipelineDef,
    c: CaseDef,
    private readonly mode: Exclude<Mode, 'recorded'>,
    /** Fresh worlds averaged per evaluation. */
    private readonly worldsPerValue: number,
    /** Seed of this game's stream of fresh worlds. */
    seed: number,
    /** Remember v(S) once computed (exact estimators); off, every call re-samples (permutation estimators). */
    private readonly remember: boolean,
    /** How many fresh worlds the game may use in all. */
    capacity: number,
  ) {
    this.players = def.steps.map((s) => s.name);
    this.range = def.range ?? [0, 1];
    this.replayer = replayerFor(def, c, mode, Array.from({ length: capacity }, (_, k) => hashWithSeed(`independent\u0000${k}`, seed)));
  }

  cost(): number {
    return this.replayer.spent;
  }

  value(mask: number): number {
    const known = this.remember ? this.memo.get(mask) : undefined;
    if (known !== undefined) return known;
    let sum = 0;
    for (let k = 0; k < this.worldsPerValue; k++) {
      const w = this.next++;
      if (w >= this.replayer.worlds.length) throw new RangeError(`IndependentGame: more than ${this.replayer.worlds.length} fresh worlds requested`);
      // Posterior: the factual run abducts this world's Gumbels from the observed choices.
      const factual = this.mode === 'posterior' ? this.replayer.runWorld(w, 0) : null;
      sum += (mask === 0 && factual ? factual : this.replayer.runWorld(w, mask)).score;
    }
    const v = sum / this.worldsPerValue;
    if (this.remember) this.memo.set(mask, v);
    return v;
  }
}

/**
 * One world per permutation (the CRN permutation estimator): world p, with its own step cache,
 * serves every coalition of permutation p. The factual run of each world (mask 0) comes first,
 * as every permutation starts from v(empty).
 */
export class PerWorldGames {
  private readonly replayer: Replayer;
  readonly players: readonly string[];
  readonly range: readonly [number, number];

  constructor(def: PipelineDef, c: CaseDef, mode: Exclude<Mode, 'recorded'>, worldSeeds: number[]) {
    this.players = def.steps.map((s) => s.name);
    this.range = def.range ?? [0, 1];
    this.replayer = replayerFor(def, c, mode, worldSeeds);
  }

  /** The game of world p. */
  world(p: number): Game {
    const memo = new Map<Coalition, number>();
    return {
      players: this.players,
      range: this.range,
      cost: () => this.replayer.spent,
      value: (mask) => {
        let v = memo.get(mask);
        if (v === undefined) memo.set(mask, (v = this.replayer.runWorld(p, mask).score));
        return v;
      },
    };
  }

  cost(): number {
    return this.replayer.spent;
  }
}
