import { RegularizedMoments } from './plug-in-bet.ts';
import { BETTING_MAX_FRACTION } from './betting-cs.ts';

/**
 * Sequential test of the sign of a mean, by betting (Waudby-Smith & Ramdas 2023, hedged capital
 * at one candidate m = 1/2, with their approximate-GRAPA bet
 *   lambda_t = (mu_{t-1} - m) / (sigma2_{t-1} + (mu_{t-1} - m)^2),
 * clipped to [0, c/m] upwards and [0, c/(1-m)] downwards). Observations lie in [0, 1]; for paired
 * differences d in [-R, R], feed (d + R) / (2R), so "mean > 1/2" means "first above second".
 * Under a mean <= 1/2 the upward capital is a nonnegative supermartingale, so by Ville's inequality
 * it ever reaches 2/alpha with probability <= alpha/2 (and so for the downward one): the decision,
 * once made, is wrong with probability <= alpha whenever we look.
 */
export class PairedBettingTest {
  private logUp = 0;
  private logDown = 0;
  private readonly threshold: number;
  private readonly moments = new RegularizedMoments();
  /** +1 once the mean is shown above 1/2, -1 once below, 0 until then (sticky). */
  sign: -1 | 0 | 1 = 0;

  constructor(alpha: number, private readonly c = BETTING_MAX_FRACTION) {
    if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
    this.threshold = Math.log(2 / alpha);
  }

  push(x: number): void {
    if (this.sign !== 0) return;
    const gap = this.moments.mean - 0.5;
    const bet = gap / (this.moments.variance + gap * gap);
    // With m = 1/2 the caps c/m and c/(1-m) are both 2c.
    const up = Math.min(Math.max(bet, 0), 2 * this.c);
    const down = Math.min(Math.max(-bet, 0), 2 * this.c);
    const d = x - 0.5;
    this.logUp += Math.log1p(up * d);
    this.logDown += Math.log1p(-down * d);
    if (this.logUp >= this.threshold) this.sign = 1;
    else if (this.logDown >= this.threshold) this.sign = -1;
    this.moments.push(x);
  }
}

/**
 * One-sided sequential test that a mean of observations in [0, 1] is above 1/2 (the upward half
 * of PairedBettingTest, with the whole threshold 1/alpha): under a mean <= 1/2 its capital is a
 * nonnegative supermartingale, so by Ville's inequality it ever reaches 1/alpha with probability
 * <= alpha. `warm` feeds the bet's plug-in estimates with observations that the capital does not
 * multiply over (earlier data): the bets stay predictable, and the test starts betting at once.
 */
export class OneSidedBettingTest {
  private logCapital = 0;
  private readonly threshold: number;
  private readonly moments = new RegularizedMoments();
  /** True once the mean is shown above 1/2 (sticky). */
  rejected = false;

  constructor(alpha: number, private readonly c = BETTING_MAX_FRACTION) {
    if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
    this.threshold = Math.log(1 / alpha);
  }

  /** An observation for the bets' estimates only (not bet on). */
  warm(x: number): void {
    this.moments.push(x);
  }

  push(x: number): void {
    if (this.rejected) return;
    const gap = this.moments.mean - 0.5;
    const bet = Math.min(Math.max(gap / (this.moments.variance + gap * gap), 0), 2 * this.c);
    this.logCapital += Math.log1p(bet * (x - 0.5));
    if (this.logCapital >= this.threshold) this.rejected = true;
    this.moments.push(x);
  }
}
