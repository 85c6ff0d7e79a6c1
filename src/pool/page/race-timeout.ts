/** Marks a call that did not settle within its time limit. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * Starts a timer that calls `expire` after `ms`; answers a function that cancels it. The pool's
 * time limits go through one, so a test can inject a clock that expires only calls that are
 * really stuck, instead of racing a short limit against a loaded machine.
 */
export type StartTimer = (expire: () => void, ms: number) => () => void;

/** The wall clock's timers. */
export const realTimer: StartTimer = (expire, ms) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

/**
 * Resolves with `promise`'s value, or with TIMED_OUT after `ms`. A Comlink call into a worker that
 * is stuck (or was terminated) never settles, so every call the page waits on goes through this.
 */
export function raceTimeout<T>(promise: Promise<T>, ms: number, startTimer: StartTimer = realTimer): Promise<T | typeof TIMED_OUT> {
  let cancel = () => {};
  const expiry = new Promise<typeof TIMED_OUT>((resolve) => {
    cancel = startTimer(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, expiry]).finally(() => cancel());
}

/**
 * A time limit that can be stopped and started afresh (each start gives the full `ms` again):
 * `expiry` resolves with TIMED_OUT once a started limit runs out. A batch restarts it with every
 * case's outcome; a waiting round stops it while its worker waits for a model response.
 */
export function restartableLimit(ms: number, startTimer: StartTimer): { expiry: Promise<typeof TIMED_OUT>; start(): void; stop(): void } {
  let cancel = () => {};
  let expire: (value: typeof TIMED_OUT) => void = () => {};
  const expiry = new Promise<typeof TIMED_OUT>((resolve) => (expire = resolve));
  const stop = () => {
    cancel();
    cancel = () => {};
  };
  return {
    expiry,
    start: () => {
      stop();
      cancel = startTimer(() => expire(TIMED_OUT), ms);
    },
    stop,
  };
}
