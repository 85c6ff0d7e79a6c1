/**
 * The predictable plug-in bet of a betting confidence sequence (Waudby-Smith & Ramdas 2023,
 * "Estimating means of bounded random variables by betting", JRSS-B, eq. for lambda^PrPl):
 *   lambda_t = min( sqrt(2 ln(2/alpha) / (sigma2_{t-1} t ln(t + 1))), c ),
 * with sigma2_{t-1} the regularised running variance of the first t - 1 observations in [0, 1]
 * (see RegularizedMoments) and c < 1 the largest fraction of capital ever bet (1/2 or 3/4).
 */
export function plugInBet(alpha: number, t: number, sigma2Previous: number, c: number): number {
  const raw = Math.sqrt((2 * Math.log(2 / alpha)) / (sigma2Previous * t * Math.log(t + 1)));
  return Math.min(raw, c);
}

/**
 * The regularised running mean and variance the plug-in bets use (Waudby-Smith & Ramdas 2023):
 *   mu_t = (1/2 + sum_{i<=t} x_i) / (t + 1),   sigma2_t = (1/4 + sum_{i<=t} (x_i - mu_i)^2) / (t + 1),
 * so before any data mu_0 = 1/2 and sigma2_0 = 1/4 (the variance bound of a [0, 1] variable).
 */
export class RegularizedMoments {
  count = 0;
  mean = 0.5;
  variance = 0.25;
  private sum = 0;
  private squares = 0;
  push(x: number): void {
    this.count++;
    this.sum += x;
    this.mean = (0.5 + this.sum) / (this.count + 1);
    const d = x - this.mean;
    this.squares += d * d;
    this.variance = (0.25 + this.squares) / (this.count + 1);
  }
}
