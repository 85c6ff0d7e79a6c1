/**
 * Simulates a full disk for the store tests: wraps IDBObjectStore.prototype.put (the
 * fake-indexeddb one installed by 'fake-indexeddb/auto') so that, once armed, the put after
 * `allowedPuts` more successful ones throws a QuotaExceededError DOMException, as a browser does
 * when the origin's quota is used up.
 */
export function simulateQuota(): { arm(allowedPuts: number): void; restore(): void } {
  const prototype = globalThis.IDBObjectStore.prototype;
  const originalPut = prototype.put;
  let remaining = Number.POSITIVE_INFINITY;
  prototype.put = function put(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (remaining <= 0) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    remaining -= 1;
    return originalPut.apply(this, args);
  };
  return {
    arm(allowedPuts) {
      remaining = allowedPuts;
    },
    restore() {
      prototype.put = originalPut;
    },
  };
}
