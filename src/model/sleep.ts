/** Wait `ms`; an injected one lets tests check the waits without waiting. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A timer that rejects as soon as `signal` aborts (so a cancel never waits out a backoff). */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
