/**
 * Lets one call into the pool's workers run alone. The page's workers may share one process
 * (Chromium puts the sandboxed frames of one site, which start them, in one process), so when that
 * process crashes every call in flight is lost with it, and only a call that was running alone can
 * be blamed for the crash. Ordinary calls share the gate; a call that must run alone waits until
 * every shared call has ended, and while it waits or runs no new shared call starts.
 */
export type Release = () => void;

export class CallGate {
  #shared = 0;
  #alone = false;
  readonly #waitingAlone: (() => void)[] = [];
  readonly #waitingShared: (() => void)[] = [];

  /** Calls running now (shared or alone): for tests. */
  get running(): number {
    return this.#shared + (this.#alone ? 1 : 0);
  }

  /** Resolves with a release once this call may run beside others; null if `signal` aborts first. */
  shared(signal?: AbortSignal): Promise<Release | null> {
    if (!this.#alone && this.#waitingAlone.length === 0) {
      this.#shared++;
      return Promise.resolve(this.#releaser(() => this.#shared--));
    }
    return this.#wait(this.#waitingShared, () => this.#shared++, () => this.#shared--, signal);
  }

  /** Resolves with a release once this call runs alone; null if `signal` aborts first. */
  alone(signal?: AbortSignal): Promise<Release | null> {
    if (!this.#alone && this.#shared === 0 && this.#waitingAlone.length === 0) {
      this.#alone = true;
      return Promise.resolve(this.#releaser(() => (this.#alone = false)));
    }
    return this.#wait(this.#waitingAlone, () => (this.#alone = true), () => (this.#alone = false), signal);
  }

  #wait(queue: (() => void)[], take: () => void, give: () => void, signal?: AbortSignal): Promise<Release | null> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(null);
      const admit = () => {
        signal?.removeEventListener('abort', abandon);
        take();
        resolve(this.#releaser(give));
      };
      const abandon = () => {
        const at = queue.indexOf(admit);
        if (at >= 0) queue.splice(at, 1);
        resolve(null);
        this.#admit();
      };
      signal?.addEventListener('abort', abandon, { once: true });
      queue.push(admit);
    });
  }

  /** A release that frees its hold once, however often it is called. */
  #releaser(give: () => void): Release {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      give();
      this.#admit();
    };
  }

  /** Lets the next waiters in: a call waiting to run alone first, once nothing runs; else every shared one. */
  #admit(): void {
    if (this.#alone) return;
    if (this.#waitingAlone.length > 0) {
      if (this.#shared === 0) this.#waitingAlone.shift()!();
      return;
    }
    for (const admit of this.#waitingShared.splice(0)) admit();
  }
}
