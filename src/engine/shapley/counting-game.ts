import type { Game } from '../types.ts';
import type { Coalition } from '../coalition.ts';

/** A game that counts every v(S) it is asked for, repeats included (the estimators' `queries`). */
export class CountingGame implements Game {
  queries = 0;
  constructor(private readonly inner: Game) {}
  get players(): readonly string[] {
    return this.inner.players;
  }
  get range(): readonly [number, number] {
    return this.inner.range;
  }
  value(mask: Coalition): number {
    this.queries++;
    return this.inner.value(mask);
  }
  cost(): number {
    return this.inner.cost();
  }
}
