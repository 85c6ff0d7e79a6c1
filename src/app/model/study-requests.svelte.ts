/**
 * The model requests a study's results name (`modelKeys`), read from the response store as the
 * results arrive: what the study's cost is counted from. Each key is read once; a key the store
 * does not hold (yet) is asked again on the next update.
 */
import type { PricedRequest } from '../runs/price-table.svelte.ts';

export type RequestLookup = (keys: readonly string[]) => Promise<ReadonlyMap<string, PricedRequest>>;

/** The distinct request keys a study's results name, sorted. */
export function studyRequestKeys(results: readonly ({ modelKeys?: readonly string[] } | undefined)[]): string[] {
  return [...new Set(results.flatMap((r) => r?.modelKeys ?? []))].sort();
}

export class StudyRequests {
  /** The requests found, in the order of their keys. */
  requests = $state.raw<PricedRequest[]>([]);
  /** Keys named by the results but not found in the store (or the store could not be read). */
  missing = $state(0);
  #found = new Map<string, PricedRequest>();
  #keys: readonly string[] = [];
  #lookup: RequestLookup;

  constructor(lookup: RequestLookup) {
    this.#lookup = lookup;
  }

  /** Reads the keys not read yet (from `studyRequestKeys`); a later update wins over an earlier one still reading. */
  async update(keys: readonly string[]): Promise<void> {
    this.#keys = keys;
    const unread = keys.filter((k) => !this.#found.has(k));
    if (unread.length > 0) {
      try {
        for (const [key, entry] of await this.#lookup(unread)) this.#found.set(key, { request: { model: entry.request.model }, response: { usage: entry.response.usage } });
      } catch {
        // The store could not be read: the requests stay uncounted (shown as missing).
      }
    }
    if (this.#keys !== keys) return;
    this.requests = keys.flatMap((k) => this.#found.get(k) ?? []);
    this.missing = keys.length - this.requests.length;
  }
}
