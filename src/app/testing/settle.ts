/**
 * Waiting in tests for something the page's state reaches asynchronously (an IndexedDB write, a
 * loopback request) without depending on how loaded the machine is: `settle` checks after every
 * turn of the event loop at first, then every few milliseconds, and gives up only after 30
 * seconds (something is stuck, not slow). It uses the real timers captured when this module
 * loads, so vitest's fake timers neither stop it nor are advanced by it.
 */
const realSetTimeout = globalThis.setTimeout;
const realSetImmediate = globalThis.setImmediate;

export async function settle(ready: () => boolean | Promise<boolean>, what = 'the condition', giveUpMs = 30_000): Promise<void> {
  const start = performance.now();
  for (let turn = 0; ; turn++) {
    if (await ready()) return;
    if (performance.now() - start > giveUpMs) throw new Error(`${what} did not hold within ${giveUpMs / 1000} s`);
    await new Promise<void>((resolve) => (turn < 200 ? realSetImmediate(resolve) : realSetTimeout(resolve, 5)));
  }
}

/** Lets the event loop turn `count` times (enough for a fake-indexeddb write that was started to finish). */
export async function turns(count = 500): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise<void>((resolve) => realSetImmediate(resolve));
}
