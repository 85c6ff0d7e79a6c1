/**
 * Where the last analysis stopped early (the batch stop, the command's --batch-stop), under which
 * settings (key): the batch counts the items up to the stop under those settings only. A reopened
 * session whose saved results already stop the batch is stopped there (`restore`), as right after
 * that run.
 */
import type { BatchBound, BatchResult, CaseResult } from '../../engine/types.ts';
import type { BatchStopRule } from '../../engine/setting-choices.ts';
import { knownStop } from '../../pool/known-stop.ts';
import { studyBatch } from '../../pool/run-study.ts';

/** The definition's own range and threshold (or the first game's range), as the command uses them. */
export type RangeFrom = { range?: readonly [number, number]; threshold?: number };

export class EarlyStop {
  #stopped = $state.raw<{ key: string; at: number } | null>(null);

  clear(): void {
    this.#stopped = null;
  }

  /** Where the run under `key` stopped, or undefined. */
  at(key: string): number | undefined {
    return this.#stopped !== null && this.#stopped.key === key ? this.#stopped.at : undefined;
  }

  stoppedAt(key: string, at: number): void {
    this.#stopped = { key, at };
  }

  /** A new run under `key` analyses past the stop. */
  resume(key: string): void {
    if (this.#stopped?.key === key) this.#stopped = null;
  }

  /** Saved results that already stop the batch: stopped there (true), or nothing changes. */
  restore(key: string, results: readonly (CaseResult | undefined)[], rangeFrom: RangeFrom, delta: number, bound: BatchBound, rule: BatchStopRule = 'top'): boolean {
    const at = knownStop(results, rangeFrom, delta, bound, rule);
    if (at === undefined) return false;
    this.#stopped = { key, at };
    return true;
  }

  /** The batch over the results under `key`: up to the stop when it stopped early. */
  batch(key: string, results: readonly (CaseResult | undefined)[], rangeFrom: RangeFrom, delta: number, bound: BatchBound, rule: BatchStopRule = 'top'): BatchResult | null {
    const stoppedAt = this.at(key);
    const counted = stoppedAt === undefined ? results : results.slice(0, stoppedAt);
    const finished = counted.filter((r): r is CaseResult => r !== undefined);
    if (finished.length === 0) return null;
    return studyBatch(finished, rangeFrom, delta, bound, stoppedAt !== undefined, rule);
  }
}
