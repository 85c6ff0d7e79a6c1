import { ModelRequestCancelled } from './endpoint-error.ts';

/**
 * Settle with `promise`, or reject with ModelRequestCancelled as soon as `signal` aborts (at once
 * when it already has): an injected sleep or fetch may ignore the signal.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ModelRequestCancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ModelRequestCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
