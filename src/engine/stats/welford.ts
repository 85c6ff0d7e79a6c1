/** Running mean and unbiased variance (Welford 1962), numerically stable in one pass. */
export class RunningStats {
  count = 0;
  mean = 0;
  private m2 = 0;

  push(x: number): void {
    this.count++;
    const d = x - this.mean;
    this.mean += d / this.count;
    this.m2 += d * (x - this.mean);
  }

  /** Unbiased sample variance (0 with fewer than two samples). */
  get variance(): number {
    return this.count > 1 ? this.m2 / (this.count - 1) : 0;
  }
}
