import { FormatError } from '../formats/format-error.ts';
import { describeValue, expectObject, ownField } from '../formats/validate.ts';
import { SESSION_VERSION, type Session, type SessionV0, type SessionV1 } from './types.ts';
import { validateSessionV0, validateSessionV1 } from './validate-session.ts';

/**
 * Version 0 -> 1: un-nest `trace`, rename `title` to `name` (falling back to the pipeline's name,
 * then the file name), split `savedAt` into created/updated, and derive the status that v0 did
 * not record: a session with a batch result had finished; one without had not started or was
 * interrupted, which v0 could not tell apart, so it opens as idle (its finished cases are kept).
 */
export function upgradeV0toV1(old: SessionV0): SessionV1 {
  const name = old.title?.trim() || old.trace.pipeline?.name || old.trace.fileName;
  return {
    format: 'agentblame-session',
    version: 1,
    id: old.id,
    name,
    createdAt: old.savedAt,
    updatedAt: old.savedAt,
    fileName: old.trace.fileName,
    ...(old.trace.pipeline !== undefined && { pipeline: old.trace.pipeline }),
    cases: old.trace.cases,
    settings: old.settings,
    results: old.results,
    ...(old.batch !== undefined && { batch: old.batch }),
    status: old.batch !== undefined ? 'done' : 'idle',
    revision: 0,
  };
}

/**
 * Readers by schema version: each validates its own shape and upgrades it to the current one.
 * A new schema version adds one entry (and an upgrade from the previous version).
 */
const READERS: Record<number, (raw: unknown) => Session> = {
  0: (raw) => upgradeV0toV1(validateSessionV0(raw, '')),
  1: (raw) => validateSessionV1(raw, ''),
};

/**
 * Turns an untrusted parsed session of any known schema version into the current Session,
 * validating it on the way. Throws a FormatError naming the JSON path of the first problem.
 */
export function migrateSession(raw: unknown): Session {
  const object = expectObject(raw, '');
  const format = ownField(object, 'format');
  if (format !== 'agentblame-session') {
    throw new FormatError('format', `expected "agentblame-session", ${describeValue(format)} (is this an agentblame session file?)`);
  }
  const version = ownField(object, 'version');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    throw new FormatError('version', `expected a schema version number, ${describeValue(version)}`);
  }
  if (version > SESSION_VERSION) {
    throw new FormatError('version', `this session was written by a newer agentblame (schema ${version}; this one reads up to ${SESSION_VERSION})`);
  }
  const read = READERS[version];
  if (read === undefined) throw new FormatError('version', `unknown schema version ${version}`);
  return read(raw);
}
