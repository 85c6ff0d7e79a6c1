/** Marks a call that did not settle within its time limit. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * Resolves with `promise`'s value, or with TIMED_OUT after `ms`. A Comlink call into a worker that
 * is stuck (or was terminated) never settles, so every call the page waits on goes through this.
 */
export function raceTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}
