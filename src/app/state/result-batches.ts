/**
 * Results reach the page's state in batches, at most every `everyMs` (a fast analysis would
 * otherwise update the view for every case): `push` queues one, `flush` delivers what is queued
 * now (before the page is left, when a run ends or is cancelled).
 */
import type { CaseResult } from '../../engine/types.ts';

export type Arrived = { index: number; result: CaseResult };

export class ResultBatches {
  #queued: Arrived[] = [];
  /** The settings key the queued results were analysed under (settings may have changed since). */
  #key = '';
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #deliver: (key: string, arrived: Arrived[]) => void;
  readonly #everyMs: number;

  constructor(deliver: (key: string, arrived: Arrived[]) => void, everyMs: number) {
    this.#deliver = deliver;
    this.#everyMs = everyMs;
  }

  push(key: string, arrived: Arrived): void {
    this.#key = key;
    this.#queued.push(arrived);
    this.#timer ??= setTimeout(() => this.flush(), this.#everyMs);
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#queued.length === 0) return;
    const arrived = this.#queued;
    this.#queued = [];
    this.#deliver(this.#key, arrived);
  }
}
