import { batchSizeFor } from '../../engine/pool-contract.ts';

/**
 * Largest batch of cases the page sends a worker in one call. The command's pool uses 16
 * (engine/pool-contract.ts MAX_BATCH); in the page each batch's answer and the next batch go
 * through the page's main thread, which on a 2-core machine often answers 25-70 ms late while it
 * renders or stores results: traces of the 400-case agent demo showed each of 2 workers idle
 * 0.2-0.9 s between its 12-13 batches (bench/README.md, "Page speed").
 */
export const PAGE_MAX_BATCH = 48;

/** The pools' batch rule (batchSizeFor) with the page's larger cap. */
export function pageBatchSize(cases: number, workers: number): number {
  return batchSizeFor(cases, workers, PAGE_MAX_BATCH);
}
