/**
 * Waits until `ready()` holds, letting the event loop turn (IndexedDB's fake runs on setImmediate)
 * between checks: counted in turns, not in time, so a loaded machine cannot make it fail, and
 * vitest's fake timers (which never fake setImmediate here) do not stop it.
 */
export async function settle(ready: () => boolean | Promise<boolean>, what = 'the condition', maxTurns = 20_000): Promise<void> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (await ready()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`${what} did not hold after ${maxTurns} turns of the event loop`);
}

/** Lets the event loop turn `count` times (enough for a fake-indexeddb write that was started to finish). */
export async function turns(count = 500): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}
