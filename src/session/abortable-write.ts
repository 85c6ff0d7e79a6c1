import { isQuotaError, StorageFullError } from './errors.ts';

/** What of an idb read-write transaction the write needs. */
interface WriteTransaction {
  readonly done: Promise<void>;
  readonly error: DOMException | null;
  abort(): void;
}

/**
 * Runs `work` in a read-write transaction and waits for it to commit; any failure aborts it whole,
 * so a half-written change never stays, and a full disk becomes `StorageFullError` naming `action`.
 */
export async function abortableWrite<T, Tx extends WriteTransaction>(action: string, tx: Tx, work: (tx: Tx) => Promise<T>): Promise<T> {
  const done = tx.done;
  done.catch(() => {}); // Observed below; this stops an abort from reporting an unhandled rejection.
  try {
    const result = await work(tx);
    await done;
    return result;
  } catch (error) {
    try {
      tx.abort();
    } catch {
      // Already finished or aborting (a failed request aborts it by itself).
    }
    if (isQuotaError(error) || isQuotaError(tx.error)) throw new StorageFullError(action, { cause: error });
    throw error;
  }
}
