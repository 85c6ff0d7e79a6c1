/** Wall and CPU time of repeated runs, summarised by the median (robust on a shared machine). */
import { treeCpuMs } from './tree-cpu.ts';

export interface Timing {
  /** Median wall time over the timed runs, in ms. */
  wallMs: number;
  /** Median CPU time (user + system) of this process's threads and its child processes (the pool's workers), in ms. */
  cpuMs: number;
  /** Every timed run's wall time, in ms, in run order. */
  wallRunsMs: number[];
}

/** Warm-up runs longer than this count as timed runs (see timeRuns). */
export const LONG_RUN_MS = 2000;

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Run `fn` `runs` times (after `warmup` untimed runs, so the JIT and caches are warm) and return
 * the median timings and the last run's result. A warm-up run longer than LONG_RUN_MS is kept as
 * the first timed run, so the slow workloads are not paid for twice.
 */
export async function timeRuns<T>(runs: number, warmup: number, fn: () => T | Promise<T>): Promise<{ timing: Timing; result: T }> {
  if (!(Number.isInteger(runs) && runs >= 1)) throw new RangeError(`runs must be a positive integer, got ${runs}`);
  const walls: number[] = [];
  const cpus: number[] = [];
  let result!: T;
  for (let i = 0; i < warmup; i++) {
    const cpu0 = treeCpuMs();
    const t0 = performance.now();
    result = await fn();
    const wall = performance.now() - t0;
    if (wall > LONG_RUN_MS) {
      // A run this long is its own warm-up (JIT time is negligible against it): count it.
      walls.push(wall);
      cpus.push(treeCpuMs() - cpu0);
      break;
    }
  }
  while (walls.length < runs) {
    const cpu0 = treeCpuMs();
    const t0 = performance.now();
    result = await fn();
    walls.push(performance.now() - t0);
    cpus.push(treeCpuMs() - cpu0);
  }
  return { timing: { wallMs: median(walls), cpuMs: median(cpus), wallRunsMs: walls }, result };
}
