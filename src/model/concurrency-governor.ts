/**
 * Requests in flight at once against one endpoint, additive-increase / multiplicative-decrease
 * (TCP's congestion rule, Jacobson 1988): halved (never below one) when an attempt times out or the
 * endpoint says 429/503, raised by one after twice the limit's answers in a row, never above the
 * configured concurrency. A one-slot CPU server then gets one request at a time instead of
 * retries piling on requests it is still computing.
 */
export class ConcurrencyGovernor {
  #limit: number;
  #successes = 0;

  constructor(readonly max: number) {
    this.#limit = max;
  }

  get limit(): number {
    return this.#limit;
  }

  /** An overloaded sign: the new, lower limit, or null when it is already one. */
  overloaded(): number | null {
    this.#successes = 0;
    if (this.#limit <= 1) return null;
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
    return this.#limit;
  }

  /** An answer came: after 2 x limit of them in a row the limit grows by one. */
  succeeded(): void {
    if (this.#limit >= this.max) return;
    if (++this.#successes >= 2 * this.#limit) {
      this.#limit++;
      this.#successes = 0;
    }
  }
}
