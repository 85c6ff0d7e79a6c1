import type { Coalition } from '../coalition.ts';
import type { Game } from '../types.ts';

/** Players up to which a sampling estimator tracks every coalition it has seen (a 2^n table: 512 KiB at 16). */

/**
 * What one interval update (a betting confidence sequence taking a sample: about 2 000 grid
 * candidates) costs, in values of v(S) replayed with the step cache: measured on the 8-step demo
 * (6 failing cases in one thread: exact 27 ms for 6 x 256 values, about 17 us a value; an update
 * about 0.5 ms), so an update is worth about 30 values.
 */
export const INTERVAL_UPDATE_COST = 32;
export const TRACK_COALITIONS_MAX_PLAYERS = 16;

/**
 * A game that remembers the value of every coalition asked for, so a sampling estimator knows when
 * it has seen all 2^n of them (from then on more samples cost work and tell nothing the exact
 * formula on the table does not, Shapley 1953), or can ask for the ones it has not seen once its
 * queries reach the 2^n the exact method needs: so sampling never costs more than exact.
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

  /** Values asked for so far, repeats included. */
  queries = 0;

  /** Asks for every coalition not asked for yet, so `table` is complete. */
  fill(): void {
    for (let mask = 0; mask < this.table.length; mask++) if (this.#seen[mask] === 0) this.value(mask);
  }

  /** Whether every coalition's value is in `table`. */
  get complete(): boolean {
    return this.#known === this.table.length;
  }

  value(mask: Coalition): number {
    const index = Number(mask);
    this.queries++;
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
