import type { SessionStore } from '../session/store.ts';
import type { Session } from '../session/types.ts';

/**
 * What the page offers the sessions UI (src/app/sessions/), through Svelte context under
 * SESSIONS_CONTEXT: the store (null until IndexedDB is open, or where it is unavailable), and
 * ways to open a stored session by id or a session object (e.g. one just imported from a file).
 */
export interface SessionsContext {
  readonly store: SessionStore | null;
  open(id: string): Promise<void>;
  openSession(session: Session): Promise<void>;
  /** The session the workbench is showing (and autosaving), if any. */
  readonly currentId: string | null;
}

export const SESSIONS_CONTEXT = 'agentblame:sessions';
