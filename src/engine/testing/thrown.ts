/**
 * The error `run` throws, when it is a `kind`; fails the test when `run` returns or throws
 * something else. For the tests of a check's message (the JSON path, the flag, the line it names).
 */
export function thrownBy<E extends Error>(run: () => unknown, kind: abstract new (...args: never[]) => E): E {
  try {
    run();
  } catch (error) {
    if (error instanceof kind) return error;
    throw new Error(`expected a ${kind.name}, got ${String(error)}`);
  }
  throw new Error(`expected a ${kind.name}, but nothing was thrown`);
}
