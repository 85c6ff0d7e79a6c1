import { plugInBet, RegularizedMoments } from './plug-in-bet.ts';

/** Grid points of the candidate means in [0, 1]; the interval is exact to 1/GRID each side. */
export const BETTING_GRID = 2000;

/** Samples multiplied in linear space between folds into the logs: (1/2)^32 and (3/2)^32 are far from under- or overflow. */
const FOLD = 32;

/** Largest fraction of capital bet (Waudby-Smith & Ramdas suggest 1/2 or 3/4). */
export const BETTING_MAX_FRACTION = 0.5;

/**
 * Betting confidence sequence for the mean of i.i.d. observations in [0, 1] (Waudby-Smith &
 * Ramdas 2023, Theorem 3: hedged capital with predictable plug-in bets). For a candidate mean m,
 *   K+_t(m) = prod_i (1 + min(lambda_i, c/m) (x_i - m)),  K-_t(m) = prod_i (1 - min(lambda_i, c/(1-m)) (x_i - m)),
 * are nonnegative martingales when m is the true mean, so by Ville's inequality
 *   C_t = { m : max(K+_t(m), K-_t(m)) / 2 < 1/alpha }
 * holds the mean at every t at once with probability >= 1 - alpha: checking it after every
 * sample and stopping whenever it suits is valid. We keep its running intersection.
 *
 * Each factor of K+ is nonincreasing in m and each of K- nondecreasing, so the excluded
 * candidates are a prefix (by K+) and a suffix (by K-) of the grid, and C_t lies strictly between
 * the last prefix point and the first suffix point: [lower, upper] below. Only candidates still
 * inside are updated, so the work per sample shrinks with the interval.
 */
export class BettingConfidenceSequence {
  private readonly logUp: Float64Array;
  private readonly logDown: Float64Array;
  /** Products of the factors since the last fold into the logs (each factor is in [1-c, 1+c], so FOLD of them stay in range). */
  private readonly pendingUp: Float64Array;
  private readonly pendingDown: Float64Array;
  private readonly capUp: Float64Array;
  private readonly capDown: Float64Array;
  private sinceFold = 0;
  private readonly threshold: number;
  private readonly moments = new RegularizedMoments();
  /** Grid indices: every point <= low and >= high is excluded; points between are candidates. */
  private low = 0;
  private high: number;

  /**
   * `within`: a range in [0, 1] known to hold the mean (a Shapley value lies within ±(hi − lo),
   * narrower than the samples' range): the sequence starts as its intersection with it (still
   * valid, as the range holds the mean surely), so candidates outside are never updated. The ends
   * stay strictly outside `within`, so a mean on its edge is never excluded.
   */
  constructor(
    private readonly alpha: number,
    private readonly grid = BETTING_GRID,
    private readonly c = BETTING_MAX_FRACTION,
    within: readonly [number, number] = [0, 1],
  ) {
    if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
    if (!(within[0] >= 0 && within[0] <= within[1] && within[1] <= 1)) throw new RangeError(`betting confidence sequence: range [${within[0]}, ${within[1]}] not inside [0, 1]`);
    this.low = Math.max(Math.ceil(within[0] * grid) - 1, 0);
    this.high = Math.min(Math.floor(within[1] * grid) + 1, grid);
    this.logUp = new Float64Array(grid + 1);
    this.logDown = new Float64Array(grid + 1);
    // Only candidates inside are ever read: the rest stay as allocated.
    this.pendingUp = new Float64Array(grid + 1).fill(1, this.low, this.high + 1);
    this.pendingDown = new Float64Array(grid + 1).fill(1, this.low, this.high + 1);
    [this.capUp, this.capDown] = betCaps(grid, c);
    // Hedging with weight 1/2 on each side: exclude m once either capital reaches 2/alpha.
    this.threshold = Math.log(2 / alpha);
  }

  get count(): number {
    return this.moments.count;
  }

  /** Lower end of the interval (in [0, 1]). */
  get lower(): number {
    return this.low / this.grid;
  }

  /** Upper end of the interval (in [0, 1]). */
  get upper(): number {
    return this.high / this.grid;
  }

  /** Feed the next observation, which must lie in [0, 1]. */
  push(x: number): void {
    if (!(x >= 0 && x <= 1)) throw new RangeError(`betting confidence sequence: observation ${x} outside [0, 1]`);
    const t = this.moments.count + 1;
    const lambda = plugInBet(this.alpha, t, this.moments.variance, this.c);
    const { grid, c, pendingUp, pendingDown } = this;
    // Multiply in linear space (a log per candidate and sample is most of the cost) and fold into
    // the logs every FOLD samples; the ends are checked on the exact sum of both.
    // Bets below both caps (c/m >= c and c/(1-m) >= c) need no per-candidate minimum.
    const { capUp, capDown } = this;
    if (lambda <= c) {
      for (let k = this.low + 1; k < this.high; k++) {
        const d = x - k / grid;
        pendingUp[k] *= 1 + lambda * d;
        pendingDown[k] *= 1 - lambda * d;
      }
    } else {
      for (let k = this.low + 1; k < this.high; k++) {
        const d = x - k / grid;
        pendingUp[k] *= 1 + Math.min(lambda, capUp[k]) * d;
        pendingDown[k] *= 1 - Math.min(lambda, capDown[k]) * d;
      }
    }
    if (++this.sinceFold === FOLD) this.fold();
    while (this.low + 1 < this.high && this.logCapitalUp(this.low + 1) >= this.threshold) this.low++;
    while (this.high - 1 > this.low && this.logCapitalDown(this.high - 1) >= this.threshold) this.high--;
    this.moments.push(x);
  }

  private logCapitalUp(k: number): number {
    return this.logUp[k] + Math.log(this.pendingUp[k]);
  }

  private logCapitalDown(k: number): number {
    return this.logDown[k] + Math.log(this.pendingDown[k]);
  }

  private fold(): void {
    for (let k = this.low + 1; k < this.high; k++) {
      this.logUp[k] += Math.log(this.pendingUp[k]);
      this.logDown[k] += Math.log(this.pendingDown[k]);
      this.pendingUp[k] = 1;
      this.pendingDown[k] = 1;
    }
    this.sinceFold = 0;
  }
}

/** The caps c/m and c/(1-m) of every candidate of a grid, computed once per grid and fraction (read only). */
const CAPS = new Map<string, readonly [Float64Array, Float64Array]>();

function betCaps(grid: number, c: number): readonly [Float64Array, Float64Array] {
  const key = `${grid}:${c}`;
  let caps = CAPS.get(key);
  if (!caps) {
    const up = new Float64Array(grid + 1);
    const down = new Float64Array(grid + 1);
    for (let k = 1; k < grid; k++) {
      up[k] = c / (k / grid);
      down[k] = c / (1 - k / grid);
    }
    caps = [up, down];
    CAPS.set(key, caps);
  }
  return caps;
}
