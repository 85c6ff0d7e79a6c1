/**
 * Wait before retry number `attempt` (0 for the first retry): "full jitter" exponential backoff,
 * a uniform draw in [0, min(cap, base * 2^attempt)) (AWS Architecture Blog, M. Brooker,
 * "Exponential Backoff And Jitter", 2015). Full jitter spreads retries of many clients that
 * failed together, which is what a rate-limited endpoint needs. `random` is in [0, 1).
 */
export function backoffDelay(attempt: number, random: () => number, baseMs = 500, capMs = 30_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}
