/**
 * How far the analysis of the open study has come (the progress bar): started with what is known,
 * advanced as results arrive (with the cost they spent and the time this run took), ended done,
 * cancelled or interrupted.
 */
import type { CaseResult } from '../../engine/types.ts';
import type { RunProgress } from './run-progress.ts';

export class RunProgressState {
  progress = $state.raw<RunProgress | null>(null);
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  get running(): boolean {
    return this.progress?.status === 'running';
  }

  /** A run (or a reopened study's state) over `known` results of `total` items. */
  start(status: RunProgress['status'], known: readonly (CaseResult | undefined)[], total: number): void {
    const done = known.filter((r) => r !== undefined).length;
    this.progress = { status, done, total, cost: costOf(known), startedAt: this.#now(), doneThisRun: 0, elapsedMs: 0 };
  }

  /** Results arrived in this run; true when they are its first. */
  advance(arrived: readonly { result: CaseResult }[]): boolean {
    const p = this.progress;
    if (!p) return false;
    let cost = p.cost;
    for (const { result } of arrived) cost += result.cost;
    this.progress = { ...p, done: p.done + arrived.length, doneThisRun: p.doneThisRun + arrived.length, cost, elapsedMs: this.#now() - p.startedAt };
    return p.doneThisRun === 0;
  }

  /** The run ended (or was stopped): its status, and the time it took. */
  end(status: 'done' | 'cancelled'): void {
    if (this.progress) this.progress = { ...this.progress, status, elapsedMs: this.#now() - this.progress.startedAt };
  }

  /** Stopped by the user: cancelled, its time as it was. */
  cancel(): void {
    if (this.progress) this.progress = { ...this.progress, status: 'cancelled' };
  }

  clear(): void {
    this.progress = null;
  }
}

function costOf(results: readonly (CaseResult | undefined)[]): number {
  let total = 0;
  for (const r of results) if (r) total += r.cost;
  return total;
}
