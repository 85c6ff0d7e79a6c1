/**
 * Geometric checkpoint schedule for anytime-valid intervals: checkpoint k (1-based) falls at
 * t_k samples, t_1 = first, t_{k+1} = max(t_k + 1, ceil(ratio * t_k)). With the confidence
 * split d_k = delta / (n k (k+1)) across n quantities, the sum over k of n d_k is delta, so
 * all intervals at all checkpoints hold together with probability >= 1 - delta, also when
 * the checkpoint at which we stop depends on the data.
 */
export class CheckpointSchedule {
  private next: number;
  private k = 1;

  constructor(
    first = 2,
    private readonly ratio = 1.25,
  ) {
    this.next = first;
  }

  /** Index of the upcoming checkpoint. */
  get index(): number {
    return this.k;
  }

  /** True when t samples reach the upcoming checkpoint; advances the schedule. */
  reached(t: number): boolean {
    if (t < this.next) return false;
    this.k++;
    this.next = Math.max(this.next + 1, Math.ceil(this.next * this.ratio));
    return true;
  }
}

/** Confidence spent on each of n quantities at checkpoint k. */
export function checkpointDelta(delta: number, n: number, k: number): number {
  return delta / (n * k * (k + 1));
}
