import { canonicalize } from '../engine/canonical.ts';
import { sha256 } from '../engine/sha256.ts';
import type { Session } from './types.ts';

/** What makes two sessions the same study: the same definition, cases, games and settings. */
export type StudyParts = Pick<Session, 'pipeline' | 'cases' | 'games' | 'settings'>;

/** The study's parts as they read back from a session file (JSON drops undefined and writes Infinity as null). */
export function studyAsStored(parts: StudyParts): unknown {
  return JSON.parse(JSON.stringify({ pipeline: parts.pipeline?.source ?? null, cases: parts.cases, games: parts.games ?? [], settings: parts.settings }));
}

/**
 * The study fingerprint: lower-case hex SHA-256 of the canonical JSON (sorted keys) of the study
 * as stored, so a session written by the command and the same study read back from its file (or
 * exported by the page) get the same fingerprint. Names, times and results are not part of it.
 */
export function studyFingerprint(parts: StudyParts): string {
  const bytes = sha256(new TextEncoder().encode(canonicalize(studyAsStored(parts))));
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}
