/**
 * "This session is being analysed in a live tab", via the Web Locks API (held until released or
 * until the tab closes or crashes). A session stored as `running` whose lock nobody holds was
 * interrupted, so it is offered for resume; one whose lock is held is running in another tab
 * and must not be resumed twice.
 */

const PREFIX = 'agentblame-run:';

export interface RunLocks {
  /** Takes the lock for a session if free; `acquired` is false when another tab holds it. */
  hold(sessionId: string): Promise<{ acquired: boolean; release: () => void }>;
  /** Ids of the sessions whose lock is held by any tab. */
  heldIds(): Promise<Set<string>>;
}

/** The browser's lock manager as RunLocks, or null where Web Locks are missing. */
export function browserRunLocks(): RunLocks | null {
  const locks = typeof navigator === 'object' && navigator !== null ? navigator.locks : undefined;
  if (locks === undefined) return null;
  return {
    hold(sessionId) {
      return new Promise((resolve) => {
        let release = () => {};
        const released = new Promise<void>((done) => {
          release = done;
        });
        void locks.request(`${PREFIX}${sessionId}`, { ifAvailable: true }, (lock) => {
          resolve({ acquired: lock !== null, release });
          return lock === null ? undefined : released;
        });
      });
    },
    async heldIds() {
      const snapshot = await locks.query();
      const ids = new Set<string>();
      for (const lock of snapshot.held ?? []) {
        if (lock.name?.startsWith(PREFIX)) ids.add(lock.name.slice(PREFIX.length));
      }
      return ids;
    },
  };
}
