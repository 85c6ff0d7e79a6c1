/**
 * The page's response cache for model steps, in its own IndexedDB database: content-addressed (the
 * key is the SHA-256 of the request as sent), so one store serves every session, and sessions never
 * need a schema change to share it. Entries are written as responses arrive, so a reload or a
 * closed tab loses no response that was paid for. Nothing here ever holds an API key.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { requestKey, type ChatRequest, type ModelResponse } from '../../engine/model-call.ts';
import { unusableAnswer } from '../../model/index.ts';

export const RESPONSES_DB_NAME = 'agentblame-model-responses';
const RESPONSES_DB_VERSION = 1;

export interface StoredResponse {
  key: string;
  request: ChatRequest;
  response: ModelResponse;
}

interface ResponsesSchema extends DBSchema {
  responses: { key: string; value: StoredResponse };
}

export class ResponseStore {
  #db: Promise<IDBPDatabase<ResponsesSchema>> | null = null;

  constructor(private readonly factory: IDBFactory | undefined = globalThis.indexedDB) {}

  #open(): Promise<IDBPDatabase<ResponsesSchema>> {
    if (!this.factory) return Promise.reject(new Error('IndexedDB is not available in this browser'));
    return (this.#db ??= openDB<ResponsesSchema>(RESPONSES_DB_NAME, RESPONSES_DB_VERSION, {
      upgrade(db) {
        db.createObjectStore('responses', { keyPath: 'key' });
      },
    }));
  }

  /** The stored entries among `keys` (missing ones are left out). */
  async getMany(keys: readonly string[]): Promise<Map<string, StoredResponse>> {
    const db = await this.#open();
    const tx = db.transaction('responses', 'readonly');
    const found = await Promise.all(keys.map((key) => tx.store.get(key)));
    await tx.done;
    const out = new Map<string, StoredResponse>();
    found.forEach((entry, k) => entry && out.set(keys[k], entry));
    return out;
  }

  /**
   * Store entries. An existing key keeps its first usable response (a response that can serve its
   * request is never replaced); a stored one that cannot (an unusable answer, kept before such
   * answers were refused, or an entry whose key is not its request's) is replaced by a fresh one
   * that can, since the host ignores it and would otherwise ask for it again forever.
   */
  async putMany(entries: readonly StoredResponse[]): Promise<void> {
    if (entries.length === 0) return;
    const db = await this.#open();
    const tx = db.transaction('responses', 'readwrite');
    await Promise.all(entries.map(async (entry) => {
      const stored = await tx.store.get(entry.key);
      if (stored === undefined || (!servesItsRequest(stored) && servesItsRequest(entry))) await tx.store.put(entry);
    }));
    await tx.done;
  }

  async count(): Promise<number> {
    return (await this.#open()).count('responses');
  }
}

/** Whether a stored entry can answer its request: keyed by that request, and not an unusable answer. */
function servesItsRequest(entry: StoredResponse): boolean {
  return requestKey(entry.request) === entry.key && unusableAnswer(entry.request, entry.response) === null;
}
