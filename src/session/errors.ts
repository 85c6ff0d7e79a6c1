/** Errors the session store throws; the UI tells them apart by class (or `name`). */

/**
 * The browser refused to store more data (QuotaExceededError). The write was rolled back as a
 * whole, so every session stored before it is intact; the UI shows this as a banner.
 */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
  constructor(readonly action: string, options?: { cause?: unknown }) {
    super(
      `Browser storage is full: could not ${action}. Nothing already saved was lost. ` +
        'Export and delete old sessions to free space.',
      options,
    );
  }
}

/**
 * A write carried an older revision than the stored session: another tab (or an earlier write)
 * changed it since this copy was read. The write was refused rather than overwrite that change.
 */
export class StaleWriteError extends Error {
  override readonly name = 'StaleWriteError';
  constructor(
    readonly sessionId: string,
    readonly expectedRevision: number,
    readonly storedRevision: number,
  ) {
    super(
      `Session ${JSON.stringify(sessionId)} was changed elsewhere (probably in another tab) since this copy was loaded ` +
        `(this copy is revision ${expectedRevision}, the stored one ${storedRevision}); reload it before saving.`,
    );
  }
}

/** The session is not in the store (never saved here, or deleted, possibly in another tab). */
export class SessionNotFoundError extends Error {
  override readonly name = 'SessionNotFoundError';
  constructor(readonly sessionId: string) {
    super(`Session ${JSON.stringify(sessionId)} is not stored here (it may have been deleted in another tab).`);
  }
}

/** IndexedDB could not be opened at all (disabled, or a private window that forbids it). */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  constructor(options?: { cause?: unknown }) {
    super('Browser storage (IndexedDB) is not available here, so sessions cannot be saved in this window.', options);
  }
}

/** Whether an error (a DOMException or a transaction's error) means the storage quota was hit. */
export function isQuotaError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'QuotaExceededError';
}
