/**
 * The session file (`*.agentblame-session.json`): the Session as versioned JSON, and the way back.
 * Files are untrusted: parsing validates every field and names the JSON path of a problem.
 */
import { FormatError } from '../formats/format-error.ts';
import { parseJson, stripByteOrderMark } from '../formats/parse-json.ts';
import { extractSessionFromReport } from './extract-session.ts';
import { migrateSession } from './migrate.ts';
import type { Session } from './types.ts';

/** The `format` field of a session file. */
export const SESSION_FORMAT = 'agentblame-session';

/**
 * The file text for a session: pretty-printed JSON of the session without its storage revision
 * (a revision only means something inside one browser's store). Infinite limits such as
 * `settings.budget` are written as null, as JSON.stringify does, and read back as Infinity.
 */
export function exportSessionFile(session: Session): string {
  const { revision: _storageOnly, ...file } = session;
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** A file name for the exported session, from its name and made safe for any file system. */
export function sessionFileName(session: Pick<Session, 'name' | 'id'>): string {
  const stem = session.name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || session.id;
  return `${stem}.agentblame-session.json`;
}

/** Parses and validates session file text of any known schema version (migrating old ones). */
export function parseSessionFile(text: string): Session {
  return migrateSession(parseJson(stripByteOrderMark(text)));
}

/** Whether text looks like HTML rather than JSON (an exported report). */
export function looksLikeHtml(text: string): boolean {
  return /^\s*</.test(stripByteOrderMark(text));
}

/**
 * Imports a session from the text of a session file or of an HTML report exported by agentblame
 * (which embeds the session in `<script type="application/json" id="agentblame-session">`).
 * Both routes end in the same validation; report problems become FormatErrors too.
 */
export function importSessionText(text: string): Session {
  if (!looksLikeHtml(text)) return parseSessionFile(text);
  let raw: unknown;
  try {
    raw = extractSessionFromReport(stripByteOrderMark(text));
  } catch (error) {
    throw new FormatError('', error instanceof Error ? error.message : String(error));
  }
  return migrateSession(raw);
}
