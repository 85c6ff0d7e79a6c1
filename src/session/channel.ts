/**
 * Change notices between tabs of the same origin, so a tab's "Recent sessions" list and open
 * session follow writes made in another tab. BroadcastChannel never delivers a message back to
 * the object that sent it; each store also tells its own listeners directly.
 */

export const CHANNEL_NAME = 'agentblame-sessions';

/** What changed: `saved` covers create, save, rename and appended results. */
export interface SessionChange {
  kind: 'saved' | 'deleted';
  id: string;
  /** The stored revision after the change (0 after a delete). */
  revision: number;
  /** True when the change was made by another tab (or another store instance). */
  remote: boolean;
}

/** Messages come from our own origin but are still checked, not cast. */
export function parseNotice(data: unknown): Omit<SessionChange, 'remote'> | null {
  if (typeof data !== 'object' || data === null) return null;
  const kind = 'kind' in data ? data.kind : undefined;
  const id = 'id' in data ? data.id : undefined;
  const revision = 'revision' in data ? data.revision : undefined;
  if ((kind !== 'saved' && kind !== 'deleted') || typeof id !== 'string' || typeof revision !== 'number') return null;
  return { kind, id, revision };
}

/** A BroadcastChannel when the environment has one (all current browsers, Node >= 18). */
export function openChannel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL_NAME) : null;
}
