/**
 * Counts the records written per object store, for the store tests that check which records a
 * save rewrites: wraps IDBObjectStore.prototype.put (fake-indexeddb's, installed by
 * 'fake-indexeddb/auto') the way quota.ts does, without changing what it does.
 */
export function countPuts(): { counts: Map<string, number>; reset(): void; restore(): void } {
  const prototype = globalThis.IDBObjectStore.prototype;
  const originalPut = prototype.put;
  const counts = new Map<string, number>();
  prototype.put = function put(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    counts.set(this.name, (counts.get(this.name) ?? 0) + 1);
    return originalPut.apply(this, args);
  };
  return {
    counts,
    reset() {
      counts.clear();
    },
    restore() {
      prototype.put = originalPut;
    },
  };
}
