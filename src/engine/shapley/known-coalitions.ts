import type { Coalition } from '../coalition.ts';
import type { Game } from '../types.ts';

/** Players up to which a sampling estimator tracks every coalition it has seen (a 2^n table: 512 KiB at 16). */
export const TRACK_COALITIONS_MAX_PLAYERS = 16;

/**
 * A game that remembers the value of every coalition asked for, so a sampling estimator knows when
 * it has seen all 2^n of them: from then on more samples cost work and tell nothing the exact
 * formula on the table does not (Shapley 1953), so sampling never costs more than exact.
 */
export class KnownCoalitions implements Game {
  readonly table: Float64Array;
  readonly #seen: Uint8Array;
  #known = 0;

  constructor(private readonly inner: Game) {
    const n = inner.players.length;
    if (n > TRACK_COALITIONS_MAX_PLAYERS) throw new RangeError(`tracking every coalition is for up to ${TRACK_COALITIONS_MAX_PLAYERS} players, got ${n}`);
    this.table = new Float64Array(2 ** n);
    this.#seen = new Uint8Array(2 ** n);
  }

  get players(): readonly string[] {
    return this.inner.players;
  }

  get range(): readonly [number, number] {
    return this.inner.range;
  }

  /** Distinct coalitions asked for so far. */
  get known(): number {
    return this.#known;
  }

  /** Whether every coalition's value is in `table`. */
  get complete(): boolean {
    return this.#known === this.table.length;
  }

  value(mask: Coalition): number {
    const index = Number(mask);
    const v = this.inner.value(mask);
    if (this.#seen[index] === 0) {
      this.#seen[index] = 1;
      this.table[index] = v;
      this.#known++;
    }
    return v;
  }

  cost(): number {
    return this.inner.cost();
  }
}
